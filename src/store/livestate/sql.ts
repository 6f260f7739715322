// The statements of documents' live state (livestate/broadcast and livestate/get), SQLite and PostgreSQL
// side by side. Row locks are PostgreSQL's; SQLite's write transaction already excludes other writers.
import { DOCUMENT } from '../documents/sql.js';
import { same, written } from '../sql.js';

const STATE = `${DOCUMENT} AND live_state_data_id = @liveStateDataId`;

export const LIVE_STATES_SQL = {
  /** The state under an id, locked until the broadcast commits: a merge reads the state it replaces. */
  lock: written('lockLiveState', (s) => `SELECT data FROM live_states WHERE ${STATE}${s.lock('UPDATE')}`),
  /**
   * A new id: its document's row, locked until the broadcast commits, so that the new ids of one
   * document are counted one broadcast at a time (NO KEY UPDATE: the weakest lock two broadcasts wait on
   * each other for).
   */
  lockDocument: written(
    'lockLiveStateDocument',
    (s) => `SELECT 1 AS found FROM documents WHERE ${DOCUMENT}${s.lock('NO KEY UPDATE')}`,
  ),
  /** How many ids the document holds, counted up to @most (all the bound needs to know). */
  count: same('countLiveStates', `SELECT count(*) AS n FROM (SELECT 1 FROM live_states WHERE ${DOCUMENT} LIMIT @most) held`),
  write: same(
    'writeLiveState',
    `INSERT INTO live_states (tenant_id, organization_id, document_id, live_state_data_id, updated_at, data)
     VALUES (@tenantId, @organizationId, @documentId, @liveStateDataId, @now, @data)
     ON CONFLICT (tenant_id, organization_id, document_id, live_state_data_id)
     DO UPDATE SET updated_at = excluded.updated_at, data = excluded.data`,
  ),
  /** livestate/get: a page of the document's states (those of @ids, or all) after @after, in id order. */
  read: written(
    'liveStates',
    (s) => `SELECT live_state_data_id, data, updated_at FROM live_states
     WHERE ${DOCUMENT} AND ${s.inList('live_state_data_id', 'ids')}
       AND (@after${s.cast('text')} IS NULL OR live_state_data_id > @after)
     ORDER BY live_state_data_id LIMIT @limit`,
  ),
};
