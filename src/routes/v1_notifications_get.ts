import { confirmedBy, tenantOf } from '../http/auth.js';
import { sendSuccessJson } from '../http/envelope.js';
import { then } from '../maybe.js';
import type { App } from '../http/types.js';
import { NotificationsGetBody } from '../schemas/notifications.js';
import { answers, NotificationsResult } from '../schemas/responses.js';
import type { Services } from '../services/context.js';
import { getNotifications } from '../services/notifications.js';

export const path = '/v1/notifications/get';

export function register(app: App, services: Services): void {
  app.post(
    path,
    {
      config: { confirmsCredentials: true },
      schema: {
        summary: 'Get notifications by document or recipient, newest first, with paging',
        tags: ['notifications'],
        body: NotificationsGetBody(services.limits),
        response: answers(NotificationsResult),
      },
    },
    (request, reply) =>
      then(getNotifications(services, tenantOf(request), request.body.data), (got) => {
        confirmedBy(request, got.credentialsVersion);
        const more: Record<string, string> = got.nextPageToken ? { pageToken: got.nextPageToken } : {};
        return sendSuccessJson(reply, 'Notification(s) retrieved successfully.', got.notificationsJson, more);
      }),
  );
}
