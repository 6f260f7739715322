import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationsDeleteBody } from '../schemas/notifications.js';
import { answers, NotificationChangesResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { deleteNotifications } from '../services/inbox.js';

export const path = '/v1/notifications/delete';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Delete the notifications the filters match, for every recipient (SPEC 11.4)',
        tags: ['notifications'],
        body: NotificationsDeleteBody(services.limits),
        response: answers(NotificationChangesResult),
      },
    },
    (request) =>
      then(deleteNotifications(services, tenantOf(request), request.body.data), (data) =>
        success('Notification(s) deleted successfully.', data),
      ),
  );
}
