// Folders (docs/api.md, "Folders"): a tree per organization, made by folders/add, renamed and moved by
// folders/update, deleted with their subtrees (their documents stay, in no folder). Each write reads the tree's
// parents once, checks its entries against it in memory (tree.ts: no recursion, a bounded depth), then writes
// the rows in key order.
import { emit } from '../events/emit.js';
import { enter } from '../organizations/organizations.js';
import { foldersDeleted } from './events.js';
import { all, first, idsInKeyOrder, inKeyOrder, list, run, type Work } from '../sql.js';
import {
  type AccessType,
  createdTimes,
  type FolderAccess,
  type FolderRecord,
  type FolderWrite,
} from '../../domain/organizations.js';
import { FOLDERS_SQL as SQL } from './sql.js';
import {
  childrenOf,
  FOLDER_DEPTH_CEILING,
  type FolderChange,
  type Parents,
  planned,
  subtreeOf,
} from '../../domain/folder-tree.js';

/** The tree's parents, after locking the organization's folders for this write. */
function* lockedTree(tenantId: string, organizationId: string): Work<Parents> {
  yield* run(SQL.lockTree, { tenantId, organizationId });
  const rows = yield* all(SQL.parents, { tenantId, organizationId });
  return new Map(rows.map((r) => [String(r.folder_id), r.parent_id === null ? null : String(r.parent_id)]));
}

/**
 * The rows of a checked write, in key order: each made (with its entry's times, else now: docs/api.md, "What an import
 * keeps"), or renamed and (with `moves`) moved.
 */
function* written(
  tenantId: string,
  organizationId: string,
  changes: readonly FolderChange[],
  now: number,
  entries: readonly FolderWrite[],
): Work<void> {
  const given = new Map(entries.map((e) => [e.folderId, e]));
  for (const c of inKeyOrder(changes, (c) => c.folderId)) {
    const at = {
      tenantId,
      organizationId,
      folderId: c.folderId,
      name: c.name,
      parentId: c.parentId,
      accessType: c.accessType,
      now,
    };
    if (c.creates) yield* run(SQL.insert, { ...at, ...createdTimes(given.get(c.folderId) ?? {}, now) });
    else yield* run(SQL.change, { ...at, moves: c.moves });
  }
}

/**
 * folders/add: each folder created under its parent (which exists, or was added earlier in the same
 * request); one that exists already is renamed and moved as folders/update would. No folder may end up
 * deeper than `maxDepth` (at most FOLDER_DEPTH_CEILING).
 */
export function* add(
  tenantId: string,
  organizationId: string,
  entries: readonly FolderWrite[],
  now: number,
  maxDepth = FOLDER_DEPTH_CEILING,
): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  const changes = planned(yield* lockedTree(tenantId, organizationId), entries, true, maxDepth);
  yield* written(tenantId, organizationId, changes, now, entries);
}

/** folders/update: renames and moves those that exist, within `maxDepth` as add; answers which did. */
export function* update(
  tenantId: string,
  organizationId: string,
  entries: readonly FolderWrite[],
  now: number,
  maxDepth = FOLDER_DEPTH_CEILING,
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const changes = planned(yield* lockedTree(tenantId, organizationId), entries, false, maxDepth);
  yield* written(tenantId, organizationId, changes, now, entries);
  return new Set(changes.map((c) => c.folderId));
}

/**
 * folders/delete: each folder that exists with its whole subtree, in one statement whatever its size;
 * their memberships go, and then their documents move to no folder: the folders go first, so a
 * documents/add or move into one of them (which locks the folder's row, documents/sql.ts) either
 * committed before, and is moved out here, or waits and finds no folder. Answers the ids asked for
 * that existed.
 */
export function* remove(tenantId: string, organizationId: string, ids: readonly string[], now: number): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const parents = yield* lockedTree(tenantId, organizationId);
  const children = childrenOf(parents);
  const found = new Set(ids.filter((id) => parents.has(id)));
  const doomed = new Set<string>();
  for (const id of found) {
    if (doomed.has(id)) continue;
    for (const f of subtreeOf(id, children)) doomed.add(f);
  }
  if (doomed.size > 0) {
    const these = { tenantId, organizationId, ids: list([...doomed]), now };
    yield* run(SQL.remove, these);
    yield* run(SQL.memberships, these);
    yield* run(SQL.roles, these);
    yield* run(SQL.unfile, these);
    yield* emit(foldersDeleted(organizationId, [...doomed]));
  }
  return found;
}

/** folders/access/update: those that exist; answers which. */
export function* setAccess(
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
  access: FolderAccess,
  now: number,
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const done = new Set<string>();
  const { accessType, inherits } = access;
  for (const folderId of idsInKeyOrder(ids)) {
    if (yield* first(SQL.access, { tenantId, organizationId, folderId, accessType, inherits, now })) done.add(folderId);
  }
  return done;
}

/** Every folder of the organization, in id order (folders/get walks them in the service). */
export function* listAll(tenantId: string, organizationId: string): Work<FolderRecord[]> {
  const rows = yield* all(SQL.all, { tenantId, organizationId });
  return rows.map((r) => ({
    folderId: String(r.folder_id),
    name: String(r.name),
    parentId: r.parent_id === null ? null : String(r.parent_id),
    accessType: String(r.access_type) as AccessType,
    inheritsAccess: Boolean(r.inherit_access),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}
