// The request data and answers of activity logs (activities/add, get, update, delete) and of the tenant's
// activity settings (workspace/activityconfig/get and update); docs/api.md, "Activities".
import Type from 'typebox';
import {
  Batch,
  type DataOf,
  Email,
  Filter,
  FreeObject,
  Id,
  type InputLimits,
  MAX_PAGE_SIZE,
  Name,
  Opt,
  OrganizationOrNone,
  Order,
  RequestBody,
  Text,
} from './common.js';
import { Success } from './responses.js';

/** The features an activity may come from (the original service's list). */
export const FEATURE_TYPES = ['comment', 'reaction', 'recorder', 'crdt', 'custom'] as const;
export const FeatureType = Type.Union(
  FEATURE_TYPES.map((t) => Type.Literal(t)),
  { description: 'comment, reaction, recorder, crdt or custom' },
);

/** The acting user: its userId, and whatever else the caller shows of it (kept as sent). */
const ActionUser = Type.Object({ userId: Id, name: Opt(Name), email: Opt(Email) }, { additionalProperties: true });

/** Any JSON value, kept as sent (an entity's snapshot). */
const AnyJson = Type.Unknown({ description: 'Any JSON value, kept as sent' });

const ActionType = Type.String({ minLength: 1, maxLength: 256 });
const Icon = Type.String({ maxLength: 2048 });

/** The members activities/update may change (activities/add takes them too). */
const changeable = (limits: InputLimits) => ({
  changes: Opt(FreeObject),
  entityData: Type.Optional(AnyJson),
  entityTargetData: Type.Optional(AnyJson),
  displayMessageTemplate: Opt(Text(limits)),
  displayMessageTemplateData: Opt(FreeObject),
  actionIcon: Opt(Icon),
});

export const ActivitiesAddBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Id,
      activities: Batch(
        limits,
        Type.Object({
          id: Opt(Id),
          featureType: FeatureType,
          actionType: ActionType,
          actionUser: ActionUser,
          targetEntityId: Opt(Id),
          targetSubEntityId: Opt(Id),
          ...changeable(limits),
          isActivityResolverUsed: Opt(Type.Boolean()),
        }),
      ),
    }),
  );
export type ActivitiesAddData = DataOf<typeof ActivitiesAddBody>;

export const ActivitiesGetBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Opt(Id),
      targetEntityId: Opt(Id),
      featureTypes: Filter(limits, FeatureType),
      actionTypes: Filter(limits, ActionType),
      userId: Opt(Id),
      activityIds: Filter(limits, Id),
      order: Opt(Order),
      pageSize: Opt(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Default 1000' })),
      pageToken: Opt(Type.String({ maxLength: 2048 })),
    }),
  );
export type ActivitiesGetData = DataOf<typeof ActivitiesGetBody>;

export const ActivitiesUpdateBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      activities: Batch(limits, Type.Object({ id: Id, ...changeable(limits) })),
    }),
  );
export type ActivitiesUpdateData = DataOf<typeof ActivitiesUpdateBody>;

export const ActivitiesDeleteBody = (limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationOrNone,
      documentId: Opt(Id),
      activityIds: Filter(limits, Id),
      targetEntityId: Opt(Id),
    }),
  );
export type ActivitiesDeleteData = DataOf<typeof ActivitiesDeleteBody>;

/** The most days retentionDays may say (100 years). */
export const MAX_RETENTION_DAYS = 36_500;

/**
 * Most trigger groups activity settings hold, and most action types in one group, in a request and once merged
 * with the stored ones (docs/api.md, "Activities"): the page documents one group (`comment`), and there are some
 * fifty event types, so these leave room for every one of them and bound what a tenant's settings (and the muted
 * action types kept beside them) can grow to, whatever updates add up to.
 */
export const MAX_TRIGGER_GROUPS = 20;
export const MAX_TRIGGERS_PER_GROUP = 200;

/** Trigger groups (comment, ...), each a map of action type to on (true) or off (false). */
const Triggers = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Record(Type.String({ maxLength: 256 }), Type.Boolean(), { maxProperties: MAX_TRIGGERS_PER_GROUP }),
  {
    maxProperties: MAX_TRIGGER_GROUPS,
    description:
      `By group (comment, ...): action types (event types) turned on (true) or off (false); at most ${MAX_TRIGGER_GROUPS} ` +
      `groups of at most ${MAX_TRIGGERS_PER_GROUP}, the stored ones included`,
  },
);

const ActivityServiceConfig = Type.Object({
  isEnabled: Opt(Type.Boolean()),
  enabledTime: Opt(Type.Integer({ minimum: 0, description: 'When activity logs were enabled (ms)' })),
  immutable: Opt(Type.Boolean({ description: 'Activities written meanwhile cannot be updated or deleted through the API' })),
  triggers: Opt(Triggers),
  retentionDays: Opt(
    Type.Integer({
      minimum: 1,
      maximum: MAX_RETENTION_DAYS,
      description: "Marginalia's own: days activities are kept (default MARGINALIA_ACTIVITY_RETENTION_DAYS, 90)",
    }),
  ),
});

export const ActivityConfigGetBody = (_limits: InputLimits) =>
  Type.Object({ data: Type.Optional(Type.Object({})) }, { description: 'No members are needed' });

export const ActivityConfigUpdateBody = (_limits: InputLimits) =>
  RequestBody(Type.Object({ activityServiceConfig: ActivityServiceConfig }));
export type ActivityConfigUpdateData = DataOf<typeof ActivityConfigUpdateBody>;

/** How one activity named by an update or delete went. */
export const ActivityOutcome = Type.Object({ success: Type.Boolean(), message: Type.String() });

/** An activity as activities/get shows it. */
export const Activity = Type.Object(
  {
    id: Type.String(),
    featureType: Type.String(),
    actionType: Type.String(),
    actionUser: ActionUser,
    targetEntityId: Type.Optional(Type.String()),
    targetSubEntityId: Type.Optional(Type.String()),
    changes: Type.Optional(FreeObject),
    entityData: Type.Optional(AnyJson),
    entityTargetData: Type.Optional(AnyJson),
    displayMessageTemplate: Type.Optional(Type.String()),
    displayMessageTemplateData: Type.Optional(FreeObject),
    actionIcon: Type.Optional(Type.String()),
    isActivityResolverUsed: Type.Optional(Type.Boolean()),
    metadata: Type.Object({
      apiKey: Type.String(),
      documentId: Type.Optional(Type.String()),
      organizationId: Type.Optional(Type.String()),
    }),
    timestamp: Type.Integer({ description: 'When it was written (ms)' }),
    immutable: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: true },
);

/** The settings as workspace/activityconfig/get and update show them. */
export const ActivityConfigShown = Type.Object({
  activityServiceConfig: Type.Object({
    isEnabled: Type.Boolean(),
    immutable: Type.Optional(Type.Boolean()),
    enabledTime: Type.Optional(Type.Integer()),
    triggers: Type.Optional(Triggers),
    retentionDays: Type.Optional(Type.Integer()),
  }),
});

export const ActivitiesAddedResult = Success(
  Type.Object({ success: Type.Boolean(), message: Type.String() }, { description: 'The message again, as the page shows it' }),
);
export const ActivitiesResult = Success(Type.Array(Activity), {
  pageToken: Type.Optional(Type.String({ description: 'Present when more activities remain' })),
});
export const ActivityOutcomesResult = Success(Type.Record(Type.String(), ActivityOutcome, { description: 'By activity id' }));
export const ActivityConfigResult = Success(ActivityConfigShown);
