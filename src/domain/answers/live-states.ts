// Live states as JSON text (livestate/get, and the livestate.broadcast event): the stored state is
// spliced in as written, never parsed again, since a state may be as large as a request body.
import type { LiveStateRecord } from '../live-state.js';

const opened = (s: LiveStateRecord) => `{"liveStateDataId":${JSON.stringify(s.liveStateDataId)},"data":${s.data}`;

/** livestate/get's data: `[{liveStateDataId, data, lastUpdated}]`, in the order given. */
export const liveStatesJson = (states: readonly LiveStateRecord[]): string =>
  `[${states.map((s) => `${opened(s)},"lastUpdated":${s.updatedAt}}`).join(',')}]`;

/** The livestate.broadcast event's data: `{liveStateDataId, data, merge, lastUpdated}`, data the state after the change. */
export const eventLiveStateJson = (s: LiveStateRecord, merge: boolean): string =>
  `${opened(s)},"merge":${merge},"lastUpdated":${s.updatedAt}}`;
