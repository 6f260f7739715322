import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationsAddBody } from '../schemas/notifications.js';
import { answers, NotificationAddedResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { addNotification } from '../services/notifications.js';

export const path = '/v1/notifications/add';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: 'Add a notification for one or more recipients',
        tags: ['notifications'],
        body: NotificationsAddBody(services.limits),
        response: answers(NotificationAddedResult, [409]),
      },
    },
    (request) =>
      then(addNotification(services, tenantOf(request), request.body.data), (data) =>
        success('Notification added successfully.', data),
      ),
  );
}
