// Folders (SPEC 12): a tree per organization, made by folders/add, renamed and moved by folders/update,
// deleted with their subtrees (their documents stay, in no folder). Each write reads the tree's parents
// once and walks it in memory (tree.ts), so depth and width cost no recursion anywhere.
import { ApiError, invalid } from '../../errors.js';
import { enter } from '../organizations/organizations.js';
import { all, first, list, run, type Work } from '../sql.js';
import type { AccessType, FolderRecord, FolderWrite } from '../store.js';
import { FOLDERS_SQL as SQL } from './sql.js';
import { childrenOf, isWithin, type Parents, subtreeOf } from './tree.js';

const missingParent = (id: string) => new ApiError('NOT_FOUND', `Folder ${id} does not exist.`);

/** The tree's parents, after locking the organization's folders for this write. */
function* lockedTree(tenantId: string, organizationId: string): Work<Parents> {
  yield* run(SQL.lockTree, { tenantId, organizationId });
  const rows = yield* all(SQL.parents, { tenantId, organizationId });
  return new Map(rows.map((r) => [String(r.folder_id), r.parent_id === null ? null : String(r.parent_id)]));
}

/**
 * A folder's new parent, checked: it must exist (NOT_FOUND), and must not be the folder or lie in its
 * subtree (INVALID_ARGUMENT, naming the entry's member). null: the top.
 */
function checkedParent(parents: Parents, e: FolderWrite, index: number, exists: boolean): string | null {
  const parent = e.parentId ?? null;
  if (parent === null) return null;
  if (!parents.has(parent)) throw missingParent(parent);
  if (exists && isWithin(parent, e.folderId, parents)) {
    throw invalid(
      `data.folders[${index}].parentFolderId: folder ${parent} is ${parent === e.folderId ? '' : 'inside '}folder ` +
        `${e.folderId}; a folder cannot move under itself or its own subtree.`,
    );
  }
  return parent;
}

/** Renames and moves one folder that exists, keeping `parents` up to date for the entries after it. */
function* change(
  tenantId: string,
  organizationId: string,
  parents: Parents,
  e: FolderWrite,
  index: number,
  now: number,
): Work<void> {
  const moves = e.parentId !== undefined;
  const parentId = moves ? checkedParent(parents, e, index, true) : null;
  yield* run(SQL.change, { tenantId, organizationId, folderId: e.folderId, name: e.name, moves, parentId, now });
  if (moves) parents.set(e.folderId, parentId);
}

/**
 * folders/add: each folder created under its parent (which exists, or was added earlier in the same
 * request); one that exists already is renamed and moved as folders/update would.
 */
export function* add(tenantId: string, organizationId: string, entries: readonly FolderWrite[], now: number): Work<void> {
  yield* enter(tenantId, organizationId, null, true);
  const parents = yield* lockedTree(tenantId, organizationId);
  for (const [index, e] of entries.entries()) {
    if (parents.has(e.folderId)) {
      yield* change(tenantId, organizationId, parents, e, index, now);
      continue;
    }
    const parentId = checkedParent(parents, e, index, false);
    yield* run(SQL.insert, { tenantId, organizationId, folderId: e.folderId, name: e.name, parentId, now });
    parents.set(e.folderId, parentId);
  }
}

/** folders/update: renames and moves those that exist; answers which did. */
export function* update(
  tenantId: string,
  organizationId: string,
  entries: readonly FolderWrite[],
  now: number,
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const parents = yield* lockedTree(tenantId, organizationId);
  const updated = new Set<string>();
  for (const [index, e] of entries.entries()) {
    if (!parents.has(e.folderId)) continue;
    yield* change(tenantId, organizationId, parents, e, index, now);
    updated.add(e.folderId);
  }
  return updated;
}

/**
 * folders/delete: each folder that exists with its whole subtree, in one statement whatever its size;
 * their documents move to no folder, their memberships go. Answers the ids asked for that existed.
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
    yield* run(SQL.unfile, these);
    yield* run(SQL.memberships, these);
    yield* run(SQL.remove, these);
  }
  return found;
}

/** folders/access/update: those that exist; answers which. */
export function* setAccess(
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
  accessType: AccessType,
  now: number,
): Work<Set<string>> {
  yield* enter(tenantId, organizationId, null, false);
  const done = new Set<string>();
  for (const folderId of ids) {
    if (yield* first(SQL.access, { tenantId, organizationId, folderId, accessType, now })) done.add(folderId);
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
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}
