// Activity records (docs/api.md, "Activities"; docs/decisions.md, "Activities"): what the store keeps of
// one, how a write's event becomes one, and how one is shown. Pure: the store writes and reads the rows.
import { NO_ORGANIZATION } from '../schemas/common.js';

/** An activity as stored: the columns the reads filter and order by, and the rest of the record as JSON text. */
export interface ActivityRow {
  organizationId: string;
  activityId: string;
  /** null: an activity of the organization, or of the tenant (an operator's), not of a document. */
  documentId: string | null;
  featureType: string;
  actionType: string;
  /** The acting user's userId (actionUser.userId): what the userId filter and an erasure look for. */
  actorId: string | null;
  targetEntityId: string | null;
  createdAt: number;
  /** Written while the settings said so: activities/update and delete leave it as it is. */
  immutable: boolean;
  /** The record's other members as JSON text: actionUser, changes, entityData, displayMessageTemplate, ... */
  body: string;
}

/** The acting user of a write that names none: a server call with the tenant's credentials. */
export const SERVER_ACTOR = { userId: '@server', name: 'Server' } as const;
/** The acting user of an operator's command (the CLI: keys, tokens, erasures). */
export const OPERATOR_ACTOR = { userId: '@operator', name: 'Operator' } as const;

/** What an event is, as a write describes it (store/events/outbox.ts EventDraft). */
export interface EventLike {
  type: string;
  organizationId: string;
  documentId: string | null;
  /** The event's data as JSON text. */
  data: string;
}

/** What an event gives an activity, besides its id, time and immutability. */
export type ActivityOfEvent = Omit<ActivityRow, 'activityId' | 'createdAt' | 'immutable'>;

const json = JSON.stringify;

/**
 * The members of an event's data that name the entity it is about, by the event type's first part, the first
 * present taken (a notification shows its `id`; its delete names `notificationId`).
 */
const TARGET_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  comment_annotation: ['annotationId'],
  comment: ['annotationId'],
  notification: ['notificationId', 'id'],
  user: ['userId'],
  document: ['documentId'],
  folder: ['folderId', 'id'],
  livestate: ['liveStateDataId'],
  workflow: ['executionId'],
};

type Data = Record<string, unknown>;

const isUser = (v: unknown): v is { userId: string } =>
  typeof v === 'object' && v !== null && typeof (v as { userId?: unknown }).userId === 'string';

/** The user who did what the event says, when its data names one (a comment's author, whoever marked read). */
function actorOf(type: string, d: Data): { userId: string } | null {
  if (type.startsWith('comment')) {
    if (isUser(d.from)) return d.from;
    if (type.endsWith('.read') && typeof d.userId === 'string') return { userId: d.userId };
    return null;
  }
  if (
    type === 'notification.read' ||
    type === 'notification.unread' ||
    type === 'notification.archive' ||
    type === 'notification.unarchive'
  )
    return typeof d.userId === 'string' ? { userId: d.userId } : null;
  if (type === 'notification.add' || type === 'notification.update') return isUser(d.actionUser) ? d.actionUser : null;
  return null;
}

function targetOf(type: string, e: EventLike, d: Data): string | null {
  if (type.startsWith('organization.usergroup'))
    return typeof d.organizationUserGroupId === 'string' ? d.organizationUserGroupId : null;
  if (type.startsWith('organization.')) return e.organizationId === NO_ORGANIZATION ? null : e.organizationId;
  for (const member of TARGET_MEMBERS[type.slice(0, type.indexOf('.'))] ?? []) {
    const v = d[member];
    if (typeof v === 'string') return v;
  }
  return e.type.startsWith('document.') ? e.documentId : null;
}

/**
 * Whether an event is logged as an activity: every one but presence's (docs/decisions.md, "Activities"),
 * which is a heartbeat that expires on its own, not something that happened to the document.
 */
export const loggedAsActivity = (type: string): boolean => !type.startsWith('presence.');

/**
 * An event as an activity (docs/decisions.md, "Activities", has the table): thread and comment events are
 * the `comment` feature, every other the `custom` one; the action type is the event type; the acting user
 * is the one the data names, else the server; the entity is the object the event is about; the event's
 * data is the activity's entityData, as written.
 */
export function activityOfEvent(e: EventLike): ActivityOfEvent {
  let d: Data = {};
  try {
    const parsed: unknown = JSON.parse(e.data);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) d = parsed as Data;
  } catch {
    // Every event's data is an object (events/drafts.ts); anything else is kept as entityData alone.
  }
  const actor = actorOf(e.type, d) ?? SERVER_ACTOR;
  const comment = e.type.startsWith('comment');
  const subId = e.type.startsWith('comment.') ? d.commentId : e.type.startsWith('workflow.') ? d.stepId : null;
  const sub = subId != null ? `,"targetSubEntityId":${json(String(subId))}` : '';
  return {
    organizationId: e.organizationId,
    documentId: e.documentId,
    featureType: comment ? 'comment' : 'custom',
    actionType: e.type,
    actorId: actor.userId,
    targetEntityId: targetOf(e.type, e, d),
    body: `{"actionUser":${json(actor)}${sub},"entityData":${e.data}}`,
  };
}

/**
 * An activity as activities/get shows it: its id, feature, action, the stored members, and metadata with
 * the reader's API key, its document and organization, then its time (ms). `immutable` only when set.
 */
export function activityJson(r: ActivityRow, apiKey: string): string {
  const rest = r.body.length > 2 ? `,${r.body.slice(1, -1)}` : '';
  const target = r.targetEntityId !== null ? `,"targetEntityId":${json(r.targetEntityId)}` : '';
  const metadata =
    `{"apiKey":${json(apiKey)}${r.documentId !== null ? `,"documentId":${json(r.documentId)}` : ''}` +
    `${r.organizationId !== NO_ORGANIZATION ? `,"organizationId":${json(r.organizationId)}` : ''}}`;
  return (
    `{"id":${json(r.activityId)},"featureType":${json(r.featureType)},"actionType":${json(r.actionType)}${target}${rest}` +
    `,"metadata":${metadata},"timestamp":${r.createdAt}${r.immutable ? ',"immutable":true' : ''}}`
  );
}

/** The members of a record a write may set, in the order its body keeps them. */
export const BODY_MEMBERS = [
  'actionUser',
  'targetSubEntityId',
  'changes',
  'entityData',
  'entityTargetData',
  'displayMessageTemplate',
  'displayMessageTemplateData',
  'actionIcon',
  'isActivityResolverUsed',
] as const;

/** A record's body from its members (those absent or null left out). */
export function bodyOf(members: Readonly<Record<string, unknown>>): string {
  const kept: Record<string, unknown> = {};
  for (const m of BODY_MEMBERS) if (members[m] != null) kept[m] = members[m];
  return json(kept);
}

/** A stored body with `changes` applied: each member named replaces the stored one. */
export function bodyChanged(stored: string, changes: Readonly<Record<string, unknown>>): string {
  return bodyOf({ ...(JSON.parse(stored) as Data), ...changes });
}

/** A tenant's activity settings as stored (workspace/activityconfig); null members were never set. */
export interface ActivitySettings {
  isEnabled: boolean | null;
  immutable: boolean | null;
  enabledTime: number | null;
  retentionDays: number | null;
  /** The triggers as set: trigger group -> action type -> on/off. */
  triggers: Record<string, Record<string, boolean>> | null;
}

/** The action types the triggers turn off (set false in any group). */
export const mutedActionTypes = (triggers: ActivitySettings['triggers']): string[] => [
  ...new Set(
    Object.values(triggers ?? {}).flatMap((g) =>
      Object.entries(g)
        .filter(([, on]) => on === false)
        .map(([type]) => type),
    ),
  ),
];

/**
 * An activity of the tenant itself, not of an organization's document (an operator's key change, an erasure):
 * kept under no organization (an activities/get without organizationId reads them), the `custom` feature.
 * `data` names no user an erasure erased (docs/decisions.md, "Activities").
 */
export function tenantActivity(
  activityId: string,
  actionType: string,
  actor: { userId: string; name: string },
  targetEntityId: string | null,
  data: Readonly<Record<string, unknown>>,
): ActivityOfEvent & { activityId: string } {
  return {
    organizationId: NO_ORGANIZATION,
    activityId,
    documentId: null,
    featureType: 'custom',
    actionType,
    actorId: actor.userId,
    targetEntityId,
    body: bodyOf({ actionUser: actor, entityData: data }),
  };
}

/** The activity of an erasure: who asked (the API or an operator), the job, how many users and where; never whom. */
export const erasureActivity = (
  activityId: string,
  actor: { userId: string; name: string },
  jobId: string,
  usersCount: number,
  organizationIds: readonly string[] | null,
) => tenantActivity(activityId, 'user.data_delete', actor, jobId, { jobId, usersCount, organizationIds });
