import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationsUpdateBody } from '../schemas/notifications.js';
import { answers, NotificationChangesResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { updateNotifications } from '../services/inbox.js';

export const path = '/v1/notifications/update';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Change notifications: read and unread marks, and content (SPEC 11.3)',
        tags: ['notifications'],
        body: NotificationsUpdateBody(services.limits),
        response: answers(NotificationChangesResult),
      },
    },
    (request) =>
      then(updateNotifications(services, tenantOf(request), request.body.data), (data) =>
        success('Notification(s) updated successfully.', data),
      ),
  );
}
