// Documents' live state: livestate/broadcast keeps a state per document and liveStateDataId, replaced or
// shallow-merged, and announces it (the livestate.broadcast event); livestate/get (an extension) reads it.
import { liveStatesJson } from '../domain/answers/live-states.js';
import { type Maybe, then } from '../maybe.js';
import type { LiveStateBroadcastData, LiveStateGetData } from '../schemas/livestate.js';
import type { Caller, Services } from './context.js';
import type { LiveStateRecord } from '../domain/live-state.js';
import { asSet, filterDigest, keyPaged } from './page-token.js';
import { filterList } from './rules.js';

/** Most liveStateDataIds a document may hold unless MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT says otherwise. */
export const DEFAULT_MAX_LIVE_STATES_PER_DOCUMENT = 1000;
/** The most that setting may say: a broadcast of a new id counts the document's ids up to it. */
export const MAX_LIVE_STATES_PER_DOCUMENT = 100_000;
/** Largest a state may be unless MARGINALIA_MAX_LIVE_STATE_BYTES says otherwise: a request body's default. */
export const DEFAULT_MAX_LIVE_STATE_BYTES = 1_048_576;
/** The most that setting may say: a page of livestate/get then stays far below the longest string Node makes. */
export const MAX_LIVE_STATE_BYTES = 16 * 1_048_576;
/** A page of livestate/get stops once it holds this many of the largest states (and always holds one). */
export const LIVE_STATE_PAGE_STATES = 8;
/** livestate/get's page size unless pageSize says otherwise. */
export const DEFAULT_LIVE_STATE_PAGE_SIZE = 100;

export function broadcastLiveState(services: Services, caller: Caller, input: LiveStateBroadcastData): Maybe<{ success: true }> {
  const { store, clock } = services;
  const broadcast = {
    organizationId: input.organizationId,
    documentId: input.documentId,
    liveStateDataId: input.liveStateDataId,
    data: input.data,
    merge: input.merge ?? false,
  };
  const bounds = {
    ids: services.maxLiveStatesPerDocument ?? DEFAULT_MAX_LIVE_STATES_PER_DOCUMENT,
    bytes: services.maxLiveStateBytes ?? DEFAULT_MAX_LIVE_STATE_BYTES,
  };
  return then(store.broadcastLiveState(caller.id, broadcast, bounds, clock()), () => ({ success: true as const }));
}

/**
 * A page of the document's states as JSON text, in id order, and the next page's token while more
 * remain: `pageSize` states at most, and fewer once they hold LIVE_STATE_PAGE_STATES of the largest
 * (always one). An unknown document or id is left out; nothing is created.
 */
export function getLiveStates(services: Services, caller: Caller, input: LiveStateGetData) {
  const { organizationId, documentId } = input;
  const ids = filterList(input.liveStateDataIds);
  const digest = filterDigest(['livestate/get', organizationId, documentId, asSet(ids)]);
  const read = (after: string | null, limit: number) =>
    services.store.getLiveStates(caller.id, organizationId, documentId, ids, after, limit);
  const budget = {
    most: LIVE_STATE_PAGE_STATES * (services.maxLiveStateBytes ?? DEFAULT_MAX_LIVE_STATE_BYTES),
    sizeOf: (s: LiveStateRecord) => s.data.length,
  };
  const paged = keyPaged(
    { pageSize: input.pageSize ?? DEFAULT_LIVE_STATE_PAGE_SIZE, pageToken: input.pageToken },
    digest,
    read,
    (s) => s.liveStateDataId,
    budget,
  );
  return then(paged, ({ page, nextPageToken }) => ({ json: liveStatesJson(page), nextPageToken }));
}
