import { confirmedBy, tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationsCountBody } from '../schemas/notifications.js';
import { answers, NotificationCountResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { countNotifications } from '../services/inbox.js';

export const path = '/v1/notifications/count/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      config: { confirmsCredentials: true },
      schema: {
        summary: "Count a user's notifications, and those unread (SPEC 11.5)",
        tags: ['notifications'],
        body: NotificationsCountBody(services.limits),
        response: answers(NotificationCountResult),
      },
    },
    (request) =>
      then(countNotifications(services, tenantOf(request), request.body.data), (got) => {
        confirmedBy(request, got.credentialsVersion);
        return success('Notification count retrieved successfully.', got.data);
      }),
  );
}
