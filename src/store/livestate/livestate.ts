// Store code of documents' live state (livestate/broadcast and livestate/get): one state per document
// and liveStateDataId, kept as the JSON text of the object it was sent as, replaced or shallow-merged
// under its row's lock (docs/decisions.md, "Live state").
import { Refusal } from '../../domain/refusal.js';
import { enter } from '../organizations/organizations.js';
import { first, list, type Query, query, run, type Work } from '../sql.js';
import type { LiveStateBounds, LiveStateBroadcast, LiveStateRecord } from '../../domain/live-state.js';
import { LIVE_STATES_SQL as SQL } from './sql.js';

/**
 * The shallow merge of `merge: true`: the stored state's members stay where they are, those sent
 * replace theirs whole (a nested object is not merged deeper), and new ones follow in the order sent.
 * A spread defines members as its own, so a member named `__proto__` is data like any other.
 */
const shallowMerged = (stored: string, sent: Readonly<Record<string, unknown>>): string =>
  JSON.stringify({ ...(JSON.parse(stored) as Record<string, unknown>), ...sent });

const tooLarge = (liveStateDataId: string, bytes: number, most: number) =>
  new Refusal(
    'RESOURCE_EXHAUSTED',
    `The state ${liveStateDataId} would be ${bytes} bytes, more than the ${most} a state may be ` +
      '(MARGINALIA_MAX_LIVE_STATE_BYTES); nothing was written. Replace it (merge: false) with a smaller one.',
  );

const tooMany = (documentId: string, most: number) =>
  new Refusal(
    'RESOURCE_EXHAUSTED',
    `Document ${documentId} holds ${most} liveStateDataIds, the most it may (MARGINALIA_MAX_LIVE_STATES_PER_DOCUMENT); ` +
      'nothing was written. Reuse an id, or delete the document.',
  );

/**
 * livestate/broadcast: a write under the organization and the document (both come into being). A new
 * id past the document's bound, or a state past its size (merges grow a state), is refused, thrown so
 * that the transaction writes nothing.
 */
export function* broadcast(tenantId: string, b: LiveStateBroadcast, bounds: LiveStateBounds, now: number): Work<LiveStateRecord> {
  const most = bounds.ids;
  yield* enter(tenantId, b.organizationId, b.documentId, true);
  const document = { tenantId, organizationId: b.organizationId, documentId: b.documentId };
  const at = { ...document, liveStateDataId: b.liveStateDataId };
  let held = yield* first<{ data: string }>(SQL.lock, at);
  if (!held) {
    // A new id: counted under its document's lock (PostgreSQL runs broadcasts side by side). No row to
    // lock means a delete of the document (or its organization) committed since enter(): it comes into
    // being again, as for any first write. Then the id again: a broadcast of it may have made it meanwhile.
    if (!(yield* first(SQL.lockDocument, document))) yield* enter(tenantId, b.organizationId, b.documentId, true);
    held = yield* first<{ data: string }>(SQL.lock, at);
    if (!held && Number((yield* first<{ n: unknown }>(SQL.count, { ...document, most }))?.n ?? 0) >= most)
      throw tooMany(b.documentId, most);
  }
  const data = b.merge && held ? shallowMerged(held.data, b.data) : JSON.stringify(b.data);
  const bytes = Buffer.byteLength(data);
  if (bytes > bounds.bytes) throw tooLarge(b.liveStateDataId, bytes, bounds.bytes);
  yield* run(SQL.write, { ...at, now, data });
  return { liveStateDataId: b.liveStateDataId, data, updatedAt: now };
}

/** livestate/get: up to `limit` of the document's states (those of `ids`, or all) after the id `after`, in id order. */
export function states(
  tenantId: string,
  q: { organizationId: string; documentId: string; ids: readonly string[] | null; after: string | null; limit: number },
): Query<LiveStateRecord[]> {
  const params = { tenantId, ...q, ids: list(q.ids) };
  return query(SQL.read, params, true, (rows) =>
    (rows as unknown[][]).map((r) => ({ liveStateDataId: r[0] as string, data: r[1] as string, updatedAt: Number(r[2]) })),
  );
}
