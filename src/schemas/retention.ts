// The request data and answers of retention policies (retention/get, set, run; docs/api.md, "Retention").
import Type from 'typebox';
import { type DataOf, Id, type InputLimits, Opt, RequestBody } from './common.js';
import { Success } from './responses.js';

/** The most days a window may be (100 years): past that a window means "for good", which is null. */
export const MAX_RETENTION_DAYS = 36_500;

const Days = (what: string) =>
  Opt(
    Type.Integer({
      minimum: 1,
      maximum: MAX_RETENTION_DAYS,
      description: `${what} older than this many days are deleted (1 to ${MAX_RETENTION_DAYS}); null or absent: kept for good`,
    }),
  );

const Scope = Type.Union([Type.Literal('read'), Type.Literal('all')], {
  description:
    '`read` (default): only notifications no listed recipient has unread (never organization-wide ones); `all`: every one',
});

const OrganizationId = Opt({
  ...Id,
  description: "The organization whose policy this is; absent: the tenant's own, which applies where no organization set one",
});

export const RetentionGetBody = (_limits: InputLimits) => RequestBody(Type.Object({ organizationId: OrganizationId }));

export const RetentionSetBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: OrganizationId,
      notificationsDays: Days('Notifications'),
      notificationsScope: Opt(Scope),
      resolvedThreadsDays: Days('Resolved threads (by their lastUpdated)'),
      eventsDays: Days("The tenant's events (the tenant's policy only)"),
      activitiesDays: Days("The tenant's activities (the tenant's policy only)"),
      inherit: Opt(
        Type.Boolean({
          description: "With organizationId alone: remove the organization's policy, so that the tenant's applies there again",
        }),
      ),
    }),
  );

export const RetentionRunBody = (_limits: InputLimits) =>
  RequestBody(
    Type.Object({
      organizationId: Opt({
        ...Id,
        description:
          "Only this organization's notifications and resolved threads; absent: every organization and the tenant's logs",
      }),
      dryRun: Opt(Type.Boolean({ description: 'Count what a run would delete now, and delete nothing' })),
    }),
  );

export type RetentionGetData = DataOf<typeof RetentionGetBody>;
export type RetentionSetData = DataOf<typeof RetentionSetBody>;
export type RetentionRunData = DataOf<typeof RetentionRunBody>;

const Window = Type.Union([Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS }), Type.Null()]);

export const RetentionPolicySchema = Type.Object({
  notificationsDays: Window,
  notificationsScope: Scope,
  resolvedThreadsDays: Window,
  eventsDays: Window,
  activitiesDays: Window,
});

export const RetentionPolicyResult = Success(
  Type.Object({
    organizationId: Type.Union([Type.String(), Type.Null()]),
    policy: Type.Union([RetentionPolicySchema, Type.Null()], {
      description: "The policy set at this level; null: none (an organization then has the tenant's)",
    }),
    inForce: { ...RetentionPolicySchema, description: "What runs apply here: the organization's, else the tenant's" },
  }),
);

const Counts = Type.Object({
  notifications: Type.Integer(),
  resolvedThreads: Type.Integer(),
  events: Type.Integer(),
  activities: Type.Integer(),
});

export const RetentionRunResult = Success(
  Type.Object({
    dryRun: Type.Boolean(),
    deleted: { ...Counts, description: 'Rows deleted per kind; with dryRun, the rows a run would delete now' },
  }),
);
