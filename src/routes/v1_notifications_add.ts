import Type from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { Batch, FreeObject, Id, NotificationId, Opt, RequestBody, UserRefIn } from '../schemas/common.js';
import type { Services } from '../services/context.js';
import { addNotification } from '../services/notifications.js';

export const path = '/v1/notifications/add';

const Body = RequestBody(Type.Object({
  organizationId: Id,
  documentId: Opt(Id),
  locationId: Opt(Id),
  notificationId: Opt(NotificationId),
  actionUser: UserRefIn,
  displayHeadlineMessageTemplate: Type.String(),
  displayHeadlineMessageTemplateData: Opt(FreeObject),
  displayBodyMessage: Opt(Type.String()),
  notificationSourceData: Opt(FreeObject),
  notifyUsers: Batch(UserRefIn),
}));

export function register(app: App, services: Services): void {
  app.post(path, { schema: { body: Body } }, async (request) =>
    success('Notification added successfully.', await addNotification(services, tenantOf(request), request.body.data)));
}
