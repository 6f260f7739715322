// Which database a process runs on matters in a few places outside the store's statements: the
// dialect to open, what its settings name, and whether the database carries notices between
// processes. Each asks here, by the database's kind, so that no other file tests the kind itself
// (test/unit/dialect-boundary.test.ts).
import type { DatabaseKind } from './dialect.js';

/**
 * The one of `choices` for the database `db` names (its settings, narrowed to that database's): every
 * database must be given a choice, so a new one is a compile error wherever it is not handled yet.
 */
export function byDatabase<D extends { kind: DatabaseKind }, T>(
  db: D,
  choices: { [K in DatabaseKind]: (db: Extract<D, { kind: K }>) => T },
): T {
  return (choices[db.kind] as (db: D) => T)(db);
}

const CARRIES_NOTICES: Readonly<Record<DatabaseKind, boolean>> = { sqlite: false, postgres: true };

/**
 * Whether the database carries notices between processes itself: PostgreSQL has LISTEN/NOTIFY
 * (dialect.ts, listen); SQLite has nothing of the kind, so processes pass them on another way
 * (events/notices.ts: the cluster primary, Redis).
 */
export const carriesNotices = (kind: DatabaseKind): boolean => CARRIES_NOTICES[kind];
