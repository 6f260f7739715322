import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationConfigSetBody } from '../schemas/notifications.js';
import { answers, NotificationConfigSetResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { setNotificationConfig } from '../services/notification-settings.js';

export const path = '/v1/notifications/config/set';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      schema: {
        summary: "Set users' inbox and email settings for documents (SPEC 11.6)",
        tags: ['notifications'],
        body: NotificationConfigSetBody(services.limits),
        response: answers(NotificationConfigSetResult),
      },
    },
    (request) =>
      then(setNotificationConfig(services, tenantOf(request), request.body.data), (data) =>
        success('User config set successfully.', data),
      ),
  );
}
