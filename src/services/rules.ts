// Request rules that a JSON schema cannot say: ids that must be unique, members that exclude or
// need each other. Each throws INVALID_ARGUMENT naming the member path.
import { invalid } from '../errors.js';
import { type MemberPath, spell } from './member-path.js';
import type { GivenTimes } from '../domain/organizations.js';
import type { Scope } from '../domain/users.js';

/** The same id twice where ids must be unique is INVALID_ARGUMENT (docs/api.md, "Wire format"). */
export function requireUnique<T>(items: readonly T[], idOf: (item: T) => unknown, path: MemberPath, member: string): void {
  const seen = new Map<unknown, number>();
  items.forEach((item, i) => {
    const id = idOf(item);
    if (id === undefined || id === null) return;
    const first = seen.get(id);
    if (first !== undefined) {
      throw invalid(`${spell([...path, i, member])} repeats ${spell([...path, first, member])}; ids must be unique.`);
    }
    seen.set(id, i);
  });
}

/** documentId or folderId, not both; neither is the organization scope (docs/api.md, "Users"). */
export function scopeOf(data: { documentId?: string | null; folderId?: string | null }): Scope {
  if (data.documentId != null && data.folderId != null) {
    throw invalid(`${spell(['documentId'])} and ${spell(['folderId'])} cannot both be given.`);
  }
  if (data.documentId != null) return { kind: 'document', id: data.documentId };
  if (data.folderId != null) return { kind: 'folder', id: data.folderId };
  return null;
}

/** An empty filter list means no filter (docs/api.md, "Wire format"). */
export function filterList<T>(list: readonly T[] | null | undefined): T[] | null {
  return list && list.length > 0 ? [...list] : null;
}

export const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** A JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One entry of a per-item answer (docs/api.md, "Comment threads"). */
export interface ItemOutcome<Id> {
  success: boolean;
  id: Id;
  message: string;
}

/**
 * A per-item answer keyed by id: each id asked for, in request order, then any other the operation
 * matched; `done` ones succeed, the others get `missing` (docs/api.md, "Per-item answers": an id that exists but
 * fails another filter is not found).
 */
export function itemOutcomes<Id extends string | number>(
  asked: readonly Id[] | null,
  done: readonly Id[],
  messages: { done: string; missing: string },
): Record<string, ItemOutcome<Id>> {
  return keyedOutcomes(asked, done, (id, success) => ({ success, id, message: success ? messages.done : messages.missing }));
}

/**
 * The same answer, with each entry as `entry` makes it (notifications' entries carry no id, docs/api.md
 * "POST /v1/notifications/update").
 */
export function keyedOutcomes<Id extends string | number, E>(
  asked: readonly Id[] | null,
  done: readonly Id[],
  entry: (id: Id, success: boolean) => E,
): Record<string, E> {
  const hit = new Set(done);
  // fromEntries: an id such as "__proto__" is an ordinary own key here.
  return Object.fromEntries(
    [...new Set([...(asked ?? []), ...done])].map((id): [string, E] => [String(id), entry(id, hit.has(id))]),
  );
}

/**
 * Rows as a map of key to list, each list in the rows' order (answers grouped by documentId). defineProperty: a
 * key such as "__proto__" is an ordinary own key here.
 */
export function grouped<R, V>(
  rows: readonly R[],
  keyOf: (row: R) => string,
  entryOf: (row: R, i: number) => V,
): Record<string, V[]> {
  const out: Record<string, V[]> = {};
  for (const [i, row] of rows.entries()) {
    const key = keyOf(row);
    if (!Object.hasOwn(out, key))
      Object.defineProperty(out, key, { value: [], enumerable: true, writable: true, configurable: true });
    out[key]!.push(entryOf(row, i));
  }
  return out;
}

/** The times a caller gave a record its add creates (docs/api.md, "What an import keeps"); null: not given. */
export const givenTimes = (t: { createdAt?: number | null; lastUpdated?: number | null }): Required<GivenTimes> => ({
  createdAt: orNull(t.createdAt),
  lastUpdated: orNull(t.lastUpdated),
});
