// Store code of documents' presence (presence/add, update, delete and get): a row per user and document
// with its expiry (domain/presence.ts). Writes take the document's lock first, so a document's presence
// changes one write at a time and the bound on its users holds.
import { type PresenceBounds, type PresenceRecord, type PresenceWrite, presenceAfter } from '../../domain/presence.js';
import { Refusal } from '../../domain/refusal.js';
import { enter } from '../organizations/organizations.js';
import { all, first, list, type Row, run, type Work } from '../sql.js';
import { PRESENCE_SQL as SQL } from './sql.js';

const recordOf = (r: Row): PresenceRecord => ({
  userId: r.user_id as string,
  name: (r.name as string | null) ?? null,
  email: (r.email as string | null) ?? null,
  status: r.status as PresenceRecord['status'],
  lastUpdated: Number(r.updated_at),
  expiresAt: Number(r.expires_at),
});

const tooMany = (documentId: string, most: number) =>
  new Refusal(
    'RESOURCE_EXHAUSTED',
    `Document ${documentId} would have more than ${most} users present, the most it may ` +
      '(MARGINALIA_MAX_PRESENCE_PER_DOCUMENT); nothing was written. Delete the presence of users who left.',
  );

const notPresent = (documentId: string, userIds: readonly string[]) =>
  new Refusal(
    'NOT_FOUND',
    `No presence of ${userIds.join(', ')} on document ${documentId} (never added, deleted, or expired); nothing was ` +
      'written. Add them with presence/add.',
  );

/** The users' presence that has not expired, by userId, read under the document's lock. */
function* held(tenantId: string, w: PresenceWrite, now: number): Work<Map<string, PresenceRecord>> {
  const at = { tenantId, organizationId: w.organizationId, documentId: w.documentId };
  yield* first(SQL.lockDocument, at);
  const rows = yield* all(SQL.held, { ...at, userIds: list(w.users.map((u) => u.userId)), now });
  return new Map(rows.map((r) => [r.user_id as string, recordOf(r)]));
}

function* write(tenantId: string, w: PresenceWrite, records: readonly PresenceRecord[], now: number): Work<void> {
  const at = { tenantId, organizationId: w.organizationId, documentId: w.documentId, now };
  for (const p of records) yield* run(SQL.write, { ...at, ...p });
}

/**
 * presence/add: the users' presence is written (what was sent over what a presence not yet expired held)
 * and its expiry moved; the organization and the document come into being. Past the document's bound
 * of users, nothing is written.
 */
export function* add(tenantId: string, w: PresenceWrite, bounds: PresenceBounds, now: number): Work<PresenceRecord[]> {
  yield* enter(tenantId, w.organizationId, w.documentId, true);
  const present = yield* held(tenantId, w, now);
  const records = w.users.map((u) => presenceAfter(present.get(u.userId) ?? null, u, now, bounds.ttlMs));
  yield* write(tenantId, w, records, now);
  if (records.length > present.size) {
    const scope = { tenantId, organizationId: w.organizationId, documentId: w.documentId, now, limit: bounds.most + 1 };
    if (Number((yield* first<{ n: unknown }>(SQL.count, scope))?.n ?? 0) > bounds.most) throw tooMany(w.documentId, bounds.most);
  }
  return records;
}

/** presence/update: users whose presence has not expired are updated and their expiry moved; if one has none, nothing is. */
export function* update(tenantId: string, w: PresenceWrite, ttlMs: number, now: number): Work<PresenceRecord[]> {
  yield* enter(tenantId, w.organizationId, w.documentId, false);
  const present = yield* held(tenantId, w, now);
  const missing = w.users.filter((u) => !present.has(u.userId)).map((u) => u.userId);
  if (missing.length > 0) throw notPresent(w.documentId, missing);
  const records = w.users.map((u) => presenceAfter(present.get(u.userId)!, u, now, ttlMs));
  yield* write(tenantId, w, records, now);
  return records;
}

/** presence/delete: the users' presence goes; answers those whose presence had not expired, in the order given. */
export function* remove(
  tenantId: string,
  organizationId: string,
  documentId: string,
  userIds: readonly string[],
  now: number,
): Work<string[]> {
  yield* enter(tenantId, organizationId, documentId, false);
  const rows = yield* all(SQL.remove, { tenantId, organizationId, documentId, userIds: list(userIds) });
  const gone = new Set(rows.filter((r) => Number(r.expires_at) > now).map((r) => r.user_id as string));
  return userIds.filter((u) => gone.has(u));
}

/** presence/get: up to `limit` users present on the document, in userId order. */
export function* ofDocument(
  tenantId: string,
  organizationId: string,
  documentId: string,
  now: number,
  limit: number,
): Work<PresenceRecord[]> {
  return (yield* all(SQL.read, { tenantId, organizationId, documentId, now, limit })).map(recordOf);
}

/** How many tenants retention looks at in one transaction, and how many rows it deletes there at most (`limit`). */
const TENANTS_PER_BATCH = 100;

/**
 * Retention: deletes up to `limit` expired presence rows, a tenant at a time from the first that has
 * some; answers how many went (fewer than `limit`: none is left).
 */
export function* pruneExpired(now: number, limit: number): Work<number> {
  let pruned = 0;
  let after = '';
  for (;;) {
    const tenants = (yield* all(SQL.expiredTenants, { after, now, limit: TENANTS_PER_BATCH })).map((r) => r.id as string);
    for (const tenantId of tenants) {
      pruned += yield* run(SQL.pruneTenant, { tenantId, now, limit: limit - pruned });
      if (pruned >= limit) return pruned;
    }
    if (tenants.length < TENANTS_PER_BATCH) return pruned;
    after = tenants[tenants.length - 1]!;
  }
}

/** users/data/delete: up to `limit` of the users' presence rows, in the organizations named (null: all); answers how many went. */
export function* eraseUsers(
  tenantId: string,
  userIds: readonly string[],
  organizationIds: readonly string[] | null,
  limit: number,
): Work<number> {
  return yield* run(SQL.eraseUsers, { tenantId, userIds: list(userIds), organizationIds: list(organizationIds), limit });
}
