// Activity logs (docs/api.md, "Activities"): activities/add, get, update and delete, with the original
// service's messages and answers. Every write's events are activities too: the store writes those in the
// write's own transaction (store/activities/, docs/decisions.md "Activities").
import { activityJson, bodyChanged, bodyOf, OPERATOR_ACTOR, type ActivityRow, tenantActivity } from '../domain/activities.js';
import { timeOrderedUuid } from '../domain/ids.js';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { ActivitiesAddData, ActivitiesDeleteData, ActivitiesGetData, ActivitiesUpdateData } from '../schemas/activities.js';
import { organizationOf } from '../schemas/common.js';
import type { Clock } from '../clock.js';
import type { NewActivity } from '../store/activities/index.js';
import type { Store } from '../store/store.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';
import { asSet, filterDigest, keyPaged, keyTuple, tupleKey } from './page-token.js';

export const ACTIVITIES_ADDED = 'Activity(s) added successfully.';
export const ACTIVITIES_READ = 'Activity(s) retrieved successfully.';
export const ACTIVITIES_UPDATED = 'Activity(s) updated successfully.';
export const ACTIVITIES_DELETED = 'Activity(s) deleted successfully.';

const UPDATED = { success: true, message: 'Activity updated.' };
const NOT_UPDATED = { success: false, message: 'Failed to update activity.' };
const DELETED = { success: true, message: 'Activity deleted.' };
const NOT_DELETED = { success: false, message: 'Failed to delete activity.' };

/** MARGINALIA_ACTIVITIES_DELETE_MAX unless set: the most activities one activities/delete by document or entity deletes. */
export const DEFAULT_ACTIVITIES_DELETE_MAX = 10_000;

export const ACTIVITIES_DISABLED =
  'Activity logs are not enabled for this API key: enable them with workspace/activityconfig/update ' +
  '(activityServiceConfig.isEnabled: true).';

/**
 * An operator's change to a tenant's key or tokens (the CLI's, or the workspace's pages') as an activity of the
 * tenant, kept when the tenant keeps activities (docs/decisions.md, "Activities"): the API key and a token's
 * prefix, never a token. Written after the change, in a transaction of its own, as the change is not an event.
 */
export async function recordOperatorAction(
  store: Store,
  clock: Clock,
  tenantId: string,
  actionType: string,
  apiKey: string,
  data: Record<string, unknown>,
): Promise<void> {
  const now = clock();
  await store.recordActivity(
    tenantId,
    tenantActivity(timeOrderedUuid(now), actionType, OPERATOR_ACTOR, apiKey, { apiKey, ...data }),
    now,
  );
}

/** An empty filter list is no filter (docs/api.md, "Wire format"). */
const filterOf = (values: readonly string[] | null | undefined): string[] | null =>
  values && values.length > 0 ? [...values] : null;

/**
 * activities/add: each activity with the caller's document and organization, the time of the call, and an id
 * (its own, else a new one); a repeated id is written once, as last given. Refused while the tenant keeps none.
 */
export function addActivities(
  { store, clock }: Services,
  caller: Caller,
  input: ActivitiesAddData,
): Maybe<{ success: true; message: string }> {
  const organizationId = organizationOf(input);
  const now = clock();
  const byId = new Map<string, NewActivity>();
  input.activities.forEach((a, i) => {
    if (a.featureType === 'custom' && a.targetEntityId == null)
      throw invalid(`${spell(['activities', i, 'targetEntityId'])} is required when featureType is custom.`);
    const activityId = a.id ?? timeOrderedUuid(now);
    byId.delete(activityId);
    byId.set(activityId, {
      organizationId,
      activityId,
      documentId: input.documentId,
      featureType: a.featureType,
      actionType: a.actionType,
      actorId: a.actionUser.userId,
      targetEntityId: a.targetEntityId ?? null,
      body: bodyOf(a),
    });
  });
  return then(store.addActivities(caller.id, [...byId.values()], now), (done) => {
    if (done === 'disabled') throw new ApiError('FAILED_PRECONDITION', ACTIVITIES_DISABLED);
    return { success: true as const, message: ACTIVITIES_ADDED };
  });
}

/** activities/get: a page of activities as JSON text, in time order (newest first unless asc), and the next token. */
export function getActivities(
  { store }: Services,
  caller: Caller,
  input: ActivitiesGetData,
): Maybe<{ dataJson: string; pageToken: string | null }> {
  const organizationId = organizationOf(input);
  const featureTypes = filterOf(input.featureTypes);
  const actionTypes = filterOf(input.actionTypes);
  const activityIds = filterOf(input.activityIds);
  const ascending = input.order === 'asc';
  const digest = filterDigest([
    'activities/get',
    organizationId,
    input.documentId ?? null,
    input.targetEntityId ?? null,
    asSet(featureTypes),
    asSet(actionTypes),
    input.userId ?? null,
    asSet(activityIds),
    ascending,
  ]);
  const read = (after: string | null, limit: number): Maybe<ActivityRow[]> =>
    store.getActivities(caller.id, {
      organizationId,
      documentId: input.documentId ?? null,
      targetEntityId: input.targetEntityId ?? null,
      featureTypes,
      actionTypes,
      userId: input.userId ?? null,
      activityIds,
      ascending,
      after: after === null ? null : keyTuple(after, ['integer', 'id'] as const),
      limit,
    });
  const paged = keyPaged(input, digest, read, (r) => tupleKey([r.createdAt, r.activityId]));
  return then(paged, ({ page, nextPageToken }) => ({
    dataJson: `[${page.map((r) => activityJson(r, caller.apiKey)).join(',')}]`,
    pageToken: nextPageToken,
  }));
}

type Outcome = { success: boolean; message: string };

/** activities/update: each activity's members named replace the stored ones; an absent or immutable one fails. */
export function updateActivities(
  { store }: Services,
  caller: Caller,
  input: ActivitiesUpdateData,
): Maybe<Record<string, Outcome>> {
  const changes = new Map<string, (stored: string) => string>();
  for (const { id, ...change } of input.activities) {
    const earlier = changes.get(id);
    // The same id twice: its changes apply in the order given.
    changes.set(id, earlier ? (stored) => bodyChanged(earlier(stored), change) : (stored) => bodyChanged(stored, change));
  }
  return then(store.updateActivities(caller.id, organizationOf(input), changes), (outcomes) =>
    Object.fromEntries([...outcomes].map(([id, done]) => [id, done ? UPDATED : NOT_UPDATED])),
  );
}

/**
 * activities/delete: by ids, or the activities of a document and/or an entity (in batches), at most
 * MARGINALIA_ACTIVITIES_DELETE_MAX of them a call (the answer lists each: a call again deletes the next ones);
 * together they narrow each other. Answers each id deleted, and each id named that was not (absent, or immutable).
 */
export async function deleteActivities(
  { store, activitiesDeleteMax }: Services,
  caller: Caller,
  input: ActivitiesDeleteData,
): Promise<Record<string, Outcome>> {
  const organizationId = organizationOf(input);
  const ids = filterOf(input.activityIds);
  const documentId = input.documentId ?? null;
  const targetEntityId = input.targetEntityId ?? null;
  if (ids === null && documentId === null && targetEntityId === null)
    throw invalid('At least one of data.documentId, data.targetEntityId or data.activityIds must be provided.');
  if (ids === null) {
    const most = activitiesDeleteMax ?? DEFAULT_ACTIVITIES_DELETE_MAX;
    const gone = await store.deleteActivitiesOf(caller.id, organizationId, documentId, targetEntityId, most);
    return Object.fromEntries(gone.map((id) => [id, DELETED]));
  }
  // Ids narrowed by a document or an entity: only those of it go.
  const named = [...new Set(ids)];
  let among = named;
  if (documentId !== null || targetEntityId !== null) {
    const rows = await store.getActivities(caller.id, {
      organizationId,
      documentId,
      targetEntityId,
      featureTypes: null,
      actionTypes: null,
      userId: null,
      activityIds: named,
      ascending: true,
      after: null,
      limit: named.length,
    });
    among = rows.map((r) => r.activityId);
  }
  const gone = new Set(among.length > 0 ? await store.deleteActivitiesByIds(caller.id, organizationId, among) : []);
  return Object.fromEntries(named.map((id) => [id, gone.has(id) ? DELETED : NOT_DELETED]));
}
