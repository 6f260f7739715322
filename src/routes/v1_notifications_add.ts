import Type from 'typebox';
import { tenantOf } from '../http/auth.js';
import { success } from '../http/envelope.js';
import type { App } from '../http/types.js';
import { Batch, FreeObject, Id, NotificationId, Opt, RequestBody, Text, UserRefIn, type InputLimits } from '../schemas/common.js';
import type { Services } from '../services/context.js';
import { addNotification } from '../services/notifications.js';
import { answers, NotificationAddedResult } from '../schemas/responses.js';

export const path = '/v1/notifications/add';

/** The request body, with the configured limits (exported for the typed client). */
export const Body = (limits: InputLimits) => RequestBody(Type.Object({
  organizationId: Id,
  documentId: Opt(Id),
  locationId: Opt(Id),
  notificationId: Opt(NotificationId),
  actionUser: UserRefIn,
  displayHeadlineMessageTemplate: Text(limits),
  displayHeadlineMessageTemplateData: Opt(FreeObject),
  displayBodyMessage: Opt(Text(limits)),
  notificationSourceData: Opt(FreeObject),
  notifyUsers: Batch(limits, UserRefIn),
}));

export function register(app: App, services: Services): void {
  app.post(path, { schema: { summary: 'Add a notification for one or more recipients', tags: ['notifications'], body: Body(services.limits), response: answers(NotificationAddedResult, [409]) } }, async (request) =>
    success('Notification added successfully.', await addNotification(services, tenantOf(request), request.body.data)));
}
