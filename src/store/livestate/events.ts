// The event of livestate/broadcast (events/drafts.ts).
import { eventLiveStateJson } from '../../domain/answers/live-states.js';
import type { LiveStateRecord } from '../../domain/live-state.js';
import { draft } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';

/** livestate/broadcast: the state after the change. Streams carry it by document access, as a thread's events. */
export const liveStateBroadcast = (
  organizationId: string,
  documentId: string,
  state: LiveStateRecord,
  merge: boolean,
): EventDraft => draft('livestate.broadcast', organizationId, documentId, eventLiveStateJson(state, merge));
