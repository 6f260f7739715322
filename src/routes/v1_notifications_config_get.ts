import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationConfigGetBody } from '../schemas/notifications.js';
import { answers, NotificationConfigResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getNotificationConfig } from '../services/notification-settings.js';

export const path = '/v1/notifications/config/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "A user's inbox and email settings per document (SPEC 11.6)",
        tags: ['notifications'],
        body: NotificationConfigGetBody(services.limits),
        response: answers(NotificationConfigResult),
      },
    },
    (request) =>
      then(getNotificationConfig(services, tenantOf(request), request.body.data), (data) =>
        success('User config fetched successfully.', data),
      ),
  );
}
