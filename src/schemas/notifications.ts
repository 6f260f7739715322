// The request bodies of the notification operations (docs/api.md, "Notifications").
import Type from 'typebox';
import {
  Batch,
  Filter,
  FreeObject,
  Id,
  MAX_ID_LENGTH,
  PAGING,
  NotificationId,
  Opt,
  Order,
  RequestBody,
  Text,
  UserRefIn,
  type InputLimits,
  type DataOf,
} from './common.js';

/** The members of notifications/add but its template, with the configured limits. */
const NotificationsAddFields = (limits: InputLimits) => ({
  organizationId: Id,
  documentId: Opt(Id),
  locationId: Opt(Id),
  notificationId: Opt(NotificationId),
  actionUser: UserRefIn,
  displayHeadlineMessageTemplateData: Opt(FreeObject),
  displayBodyMessage: Opt(Text(limits)),
  notificationSourceData: Opt(FreeObject),
  /** /v2: the source shown (notificationSource; "custom" unless given), an access context, the resolver flag. */
  notificationSource: Opt(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })),
  context: Opt(FreeObject),
  isNotificationResolverUsed: Opt(Type.Boolean()),
  /** Organizations and documents are made by their first write whatever these say. */
  createOrganization: Opt(Type.Boolean()),
  createDocument: Opt(Type.Boolean()),
  /** Only recipients with access to the document (docs/decisions.md, "verifyUserPermissions (issue 38)"). */
  verifyUserPermissions: Opt(Type.Boolean()),
  // Optional (docs/api.md, "Addressing and read state"): none, or none with notifyAll, addresses the whole
  // organization.
  notifyUsers: Opt(Type.Array(UserRefIn, { maxItems: limits.maxBatch })),
  notifyAll: Opt(Type.Boolean()),
});

/** The notifications/add request body, with the configured limits. */
export const NotificationsAddBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ ...NotificationsAddFields(limits), displayHeadlineMessageTemplate: Text(limits) }));

/**
 * /v2's: the template may be left out with isNotificationResolverUsed (the customer's resolver then gives the
 * content; checked by the service, which names them).
 */
export const NotificationsAddV2Body = (limits: InputLimits) =>
  RequestBody(Type.Object({ ...NotificationsAddFields(limits), displayHeadlineMessageTemplate: Opt(Text(limits)) }));

/** The notifications/get request body, with the configured limits. */
export const NotificationsGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      userId: Opt(Id),
      locationId: Opt(Id),
      // Any string may be asked for; an id that was never valid simply matches nothing (docs/api.md,
      // "Identifiers and limits").
      notificationIds: Filter(limits, Type.String()),
      // Needs userId (docs/api.md, "POST /v1/notifications/get"): true keeps what userId has not read, false what
      // they have.
      unread: Opt(Type.Boolean()),
      // Needs userId (docs/api.md, "POST /v1/notifications/get"): absent or false hides what userId archived, true
      // keeps only that, null shows both.
      archived: Opt(Type.Boolean()),
      order: Opt(Order),
      ...PAGING,
    }),
  );

/** One notification's change in notifications/update (docs/api.md, "POST /v1/notifications/update"). */
const NotificationChangeIn = (limits: InputLimits) =>
  Type.Object({
    // Any id string (docs/api.md, "Identifiers and limits"): an id that was never valid is answered as unknown.
    id: Type.String({ minLength: 1 }),
    readByUserIds: Filter(limits, Id),
    unreadByUserIds: Filter(limits, Id),
    // The original service's inbox hides what was read unless this is true; reads here never hide read
    // notifications, so it changes nothing (docs/decisions.md).
    persistReadForUsers: Opt(Type.Boolean()),
    actionUser: Opt(UserRefIn),
    displayHeadlineMessageTemplate: Opt(Text(limits)),
    displayHeadlineMessageTemplateData: Opt(FreeObject),
    displayBodyMessage: Opt(Text(limits)),
    notificationSourceData: Opt(FreeObject),
  });

export const NotificationsUpdateBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      notifications: Batch(limits, NotificationChangeIn(limits)),
      /** Read marks only for users with access to each notification's document (docs/decisions.md, "verifyUserPermissions (issue 38)"). */
      verifyUserPermissions: Opt(Type.Boolean()),
    }),
  );

/** notifications/delete: at least one filter (checked by the service, which names them). */
export const NotificationsDeleteBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Opt(Id),
      locationId: Opt(Id),
      userId: Opt(Id),
      notificationIds: Filter(limits, Type.String()),
    }),
  );

export const NotificationsCountBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, userId: Id, documentId: Opt(Id), archived: Opt(Type.Boolean()) }));

export const NotificationsReadBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      userId: Id,
      documentId: Opt(Id),
      notificationIds: Filter(limits, Type.String()),
    }),
  );

/** notifications/archive (docs/api.md, "POST /v1/notifications/archive"): the ids named, or everything read (allRead). */
export const NotificationsArchiveBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      userId: Id,
      notificationIds: Opt(Batch(limits, Type.String())),
      allRead: Opt(Type.Boolean()),
    }),
  );

/** notifications/unarchive (docs/api.md, "POST /v1/notifications/unarchive"). */
export const NotificationsUnarchiveBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, userId: Id, notificationIds: Batch(limits, Type.String()) }));

/**
 * An inbox or email setting (docs/api.md, "POST /v1/notifications/config/get"): an enum, so a wrong value is
 * answered with the values allowed.
 */
export const SettingValue = Type.Unsafe<'ALL' | 'MINE' | 'NONE'>({ type: 'string', enum: ['ALL', 'MINE', 'NONE'] });

export const NotificationConfigGetBody = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentIds: Batch(limits, Id), userId: Id }));

/** /v2's: documentIds required unless getOrganizationConfig (checked by the service, which names them). */
export const NotificationConfigGetV2Body = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentIds: Filter(limits, Id),
      userId: Id,
      /** The user's organization-level setting, their default for every document. */
      getOrganizationConfig: Opt(Type.Boolean()),
    }),
  );

const ConfigIn = Type.Object({ inbox: Opt(SettingValue), email: Opt(SettingValue) });

export const NotificationConfigSetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentIds: Batch(limits, Id),
      userIds: Batch(limits, Id),
      // At least one of them, not null (null is absent, docs/api.md "Wire format"): checked by the service, which
      // names them.
      config: ConfigIn,
    }),
  );

/** /v2's: without documentIds, the organization-level setting, each user's default for every document. */
export const NotificationConfigSetV2Body = (limits: InputLimits) =>
  RequestBody(Type.Object({ organizationId: Id, documentIds: Filter(limits, Id), userIds: Batch(limits, Id), config: ConfigIn }));

export type NotificationsAddData = DataOf<typeof NotificationsAddBody>;
export type NotificationsGetData = DataOf<typeof NotificationsGetBody>;
export type NotificationsUpdateData = DataOf<typeof NotificationsUpdateBody>;
export type NotificationsDeleteData = DataOf<typeof NotificationsDeleteBody>;
export type NotificationsCountData = DataOf<typeof NotificationsCountBody>;
export type NotificationsReadData = DataOf<typeof NotificationsReadBody>;
export type NotificationsArchiveData = DataOf<typeof NotificationsArchiveBody>;
export type NotificationsUnarchiveData = DataOf<typeof NotificationsUnarchiveBody>;
export type NotificationConfigGetData = DataOf<typeof NotificationConfigGetV2Body>;
export type NotificationConfigSetData = DataOf<typeof NotificationConfigSetV2Body>;
export type NotificationsAddV2Data = DataOf<typeof NotificationsAddV2Body>;
