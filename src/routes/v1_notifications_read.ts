import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationsReadBody } from '../schemas/notifications.js';
import { answers, NotificationsMarkedResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { markNotificationsRead } from '../services/inbox.js';

export const path = '/v1/notifications/read';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "Mark a user's notifications read: all, a document's, or those named (SPEC 11.5)",
        tags: ['notifications'],
        body: NotificationsReadBody(services.limits),
        response: answers(NotificationsMarkedResult),
      },
    },
    (request) =>
      then(markNotificationsRead(services, tenantOf(request), request.body.data), (data) =>
        success('Notification(s) marked read.', data),
      ),
  );
}
