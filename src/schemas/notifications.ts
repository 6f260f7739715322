// The request bodies of the notification operations (SPEC 7).
import Type from 'typebox';
import {
  Batch,
  Filter,
  FreeObject,
  Id,
  MAX_PAGE_SIZE,
  NotificationId,
  Opt,
  RequestBody,
  Text,
  UserRefIn,
  type InputLimits,
  type DataOf,
} from './common.js';

/** The notifications/add request body, with the configured limits. */
export const NotificationsAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
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
    }),
  );

/** The notifications/get request body, with the configured limits. */
export const NotificationsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      userId: Opt(Id),
      locationId: Opt(Id),
      // Any string may be asked for; an id that was never valid simply matches nothing (SPEC 4).
      notificationIds: Filter(limits, Type.String()),
      pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
      pageToken: Opt(Type.String({ maxLength: 1024 })),
    }),
  );

export type NotificationsAddData = DataOf<typeof NotificationsAddBody>;
export type NotificationsGetData = DataOf<typeof NotificationsGetBody>;
