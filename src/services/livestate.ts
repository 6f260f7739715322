// Documents' live state: livestate/broadcast keeps a state per document and liveStateDataId, replaced or
// shallow-merged, and announces it (the livestate.broadcast event); livestate/get (an extension) reads it.
import { liveStatesJson } from '../answers/live-states.js';
import { type Maybe, then } from '../maybe.js';
import type { LiveStateBroadcastData, LiveStateGetData } from '../schemas/livestate.js';
import type { Caller, Services } from './context.js';
import { filterList } from './rules.js';

/** Most liveStateDataIds a document may hold unless MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT says otherwise. */
export const DEFAULT_MAX_LIVE_STATES_PER_DOCUMENT = 1000;
/**
 * The most that setting may say: a broadcast of a new id counts the document's ids up to it, and
 * livestate/get answers them all at once.
 */
export const MAX_LIVE_STATES_PER_DOCUMENT = 100_000;

export function broadcastLiveState(services: Services, caller: Caller, input: LiveStateBroadcastData): Maybe<{ success: true }> {
  const { store, clock } = services;
  const broadcast = {
    organizationId: input.organizationId,
    documentId: input.documentId,
    liveStateDataId: input.liveStateDataId,
    data: input.data,
    merge: input.merge ?? false,
  };
  const most = services.maxLiveStatesPerDocument ?? DEFAULT_MAX_LIVE_STATES_PER_DOCUMENT;
  return then(store.broadcastLiveState(caller.id, broadcast, most, clock()), () => ({ success: true as const }));
}

/** The document's states as JSON text, in id order; an unknown document or id is left out, nothing is created. */
export function getLiveStates({ store }: Services, caller: Caller, input: LiveStateGetData): Maybe<string> {
  const ids = filterList(input.liveStateDataIds);
  return then(store.getLiveStates(caller.id, input.organizationId, input.documentId, ids), liveStatesJson);
}
