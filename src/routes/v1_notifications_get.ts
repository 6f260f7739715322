import Type from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { Filter, Id, MAX_PAGE_SIZE, Opt, RequestBody, type InputLimits } from '../schemas/common.js';
import type { Services } from '../services/context.js';
import { getNotifications } from '../services/notifications.js';
import { answers, NotificationsResult } from '../schemas/responses.js';

export const path = '/v1/notifications/get';

/** The request body, with the configured limits (exported for the typed client). */
export const Body = (limits: InputLimits) => RequestBody(Type.Object({
  organizationId: Id,
  documentId: Opt(Id),
  userId: Opt(Id),
  locationId: Opt(Id),
  // Any string may be asked for; an id that was never valid simply matches nothing (SPEC 4).
  notificationIds: Filter(limits, Type.String()),
  pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  pageToken: Opt(Type.String({ maxLength: 1024 })),
}));

export function register(app: App, services: Services): void {
  app.post(path, { schema: { summary: 'Get notifications by document or recipient, newest first, with paging', tags: ['notifications'], body: Body(services.limits), response: answers(NotificationsResult) } }, async (request) => {
    const { notifications, nextPageToken } = await getNotifications(services, tenantOf(request), request.body.data);
    return success('Notification(s) retrieved successfully.', notifications, nextPageToken ? { pageToken: nextPageToken } : {});
  });
}
