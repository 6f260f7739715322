// Folders (docs/api.md, "Folders"): organizations/folders/add, get, update, delete and access/update. A subtree is
// built without recursion (docs/api.md, "Folders": 50 levels and 10,000 folders), and no folder is deeper than
// MARGINALIA_MAX_FOLDER_DEPTH, so its nested answer always serializes.
import { shownFolder } from '../domain/answers/objects.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import {
  type FoldersAddData,
  type FoldersData,
  type FoldersDeleteData,
  type FoldersAccessV2Data,
  type FoldersGetV2Data,
  ROOT,
} from '../schemas/folders.js';
import type { FolderAnswer } from '../schemas/responses.js';
import { childrenOf, FOLDER_DEPTH_CEILING, type Parents, subtreeOf } from '../domain/folder-tree.js';
import type { FolderRecord, FolderWrite } from '../domain/organizations.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';
import { givenTimes, keyedOutcomes, orNull, requireUnique } from './rules.js';

const NOT_FOUND = { message: 'Folder does not exist', code: 'not-found' as const };

/** How deep folders may be unless MARGINALIA_MAX_FOLDER_DEPTH says otherwise. */
export const DEFAULT_MAX_FOLDER_DEPTH = 1000;
/** The most MARGINALIA_MAX_FOLDER_DEPTH may say: the store refuses deeper folders whatever it says. */
export const MAX_FOLDER_DEPTH = FOLDER_DEPTH_CEILING;

/** The request's folders as writes: "root" is the top; a folder cannot be its own parent, nor be called "root". */
function writes(input: FoldersData | FoldersAddData): FolderWrite[] {
  requireUnique(input.folders, (f) => f.folderId, ['folders'], 'folderId');
  return input.folders.map((f, i) => {
    if (f.folderId === ROOT)
      throw invalid(`${spell(['folders', i, 'folderId'])} cannot be "root": it names the top of the tree.`);
    if (f.parentFolderId === f.folderId) {
      throw invalid(`${spell(['folders', i, 'parentFolderId'])}: a folder cannot move under itself or its own subtree.`);
    }
    const parent = f.parentFolderId == null ? undefined : f.parentFolderId === ROOT ? null : f.parentFolderId;
    return { folderId: f.folderId, name: orNull(f.folderName), parentId: parent, accessType: f.accessType ?? null };
  });
}

const parentsOf = (folders: readonly FolderRecord[]): Parents => new Map(folders.map((f) => [f.folderId, f.parentId]));

/**
 * folders/add: creates each under its parent (NOT_FOUND for an unknown one), with the times given (docs/api.md, "What an
 * import keeps"), or renames and moves one that exists.
 */
export function addFolders(services: Services, caller: Caller, input: FoldersAddData) {
  const { store, clock } = services;
  const entries = writes(input).map((e, i) => ({ ...e, ...givenTimes(input.folders[i]!) }));
  return then(
    store.addFolders(caller.id, input.organizationId, entries, clock(), services.maxFolderDepth ?? DEFAULT_MAX_FOLDER_DEPTH),
    () => Object.fromEntries(entries.map(({ folderId: id }) => [id, { success: true, id, message: 'Folder added.' }])),
  );
}

/** folders/update: renames and moves those that exist; a move under its own subtree is INVALID_ARGUMENT. */
export function updateFolders(services: Services, caller: Caller, input: FoldersData) {
  const { store, clock } = services;
  const entries = writes(input);
  const written = store.updateFolders(
    caller.id,
    input.organizationId,
    entries,
    clock(),
    services.maxFolderDepth ?? DEFAULT_MAX_FOLDER_DEPTH,
  );
  return then(written, (updated) =>
    keyedOutcomes(
      entries.map((e) => e.folderId),
      [...updated],
      (id, success) => (success ? { success, id, message: 'Folder Updated.' } : { success, id, ...NOT_FOUND }),
    ),
  );
}

/** folders/delete (extension): each with its subtree; their documents move to no folder. */
export function deleteFolders({ store, clock }: Services, caller: Caller, input: FoldersDeleteData) {
  const ids = input.folderIds;
  return then(store.deleteFolders(caller.id, input.organizationId, ids, clock()), (deleted) =>
    keyedOutcomes(ids, [...deleted], (id, success) =>
      success ? { success, id, message: 'Folder deleted.' } : { success, id, ...NOT_FOUND },
    ),
  );
}

/**
 * folders/access/update: the access type, and (/v2) whether the folder inherits its parent's; a folder given an
 * access type of its own and no inheritFromParent stops inheriting (docs/decisions.md).
 */
export function setFolderAccess({ store, clock }: Services, caller: Caller, input: FoldersAccessV2Data) {
  const ids = input.folderIds;
  const accessType = input.accessType ?? null;
  const asked = input.inheritFromParent ?? null;
  const inherits = asked ?? (accessType === null ? null : false);
  if (accessType === null && inherits === null)
    throw invalid(`${spell(['accessType'])} or ${spell(['inheritFromParent'])} is required.`);
  const shown = asked === null ? { accessType } : { accessType, inheritFromParent: asked };
  return then(store.setFolderAccess(caller.id, input.organizationId, ids, { accessType, inherits }, clock()), (done) =>
    keyedOutcomes(ids, [...done], (_id, success) =>
      success
        ? { success, ...shown, message: 'Folder access type updated.' }
        : { success, ...shown, message: NOT_FOUND.message, code: NOT_FOUND.code },
    ),
  );
}

/** How a folder is shown: as v1 shows it, or with /v2's members (the caller's apiKey, ancestors, inheritance). */
type Shown = (f: FolderRecord) => FolderAnswer;

const shownAs = (input: FoldersGetV2Data, caller: Caller, parents: Parents): Shown => {
  const { organizationId } = input;
  if (!input.v2) return (f) => shownFolder(f, organizationId);
  return (f) => ({
    ...shownFolder(f, organizationId),
    apiKey: caller.apiKey,
    ancestors: ancestorsOf(f.folderId, parents),
    inheritAccessFromParent: f.inheritsAccess,
  });
};

/** A folder's ancestors from the top down, "root" first (the tree is walked, never recursed). */
function ancestorsOf(folderId: string, parents: Parents): string[] {
  const up: string[] = [];
  const seen = new Set([folderId]);
  for (let at = parents.get(folderId); at != null && !seen.has(at); at = parents.get(at)) {
    seen.add(at);
    up.push(at);
  }
  return [ROOT, ...up.reverse()];
}

/**
 * The folder with its subtree nested in `subFolders`, children in folderId order, `maxDepth` levels down
 * (all of them by default); a folder at that depth has no `subFolders`. Each folder is made once, in the
 * order of the walk (domain/folder-tree.ts, no recursion), and attached to its parent.
 */
export function subtree(
  folders: readonly FolderRecord[],
  rootId: string,
  organizationId: string,
  maxDepth = Number.POSITIVE_INFINITY,
  shown: Shown = (f) => shownFolder(f, organizationId),
): FolderAnswer | null {
  const byId = new Map(folders.map((f) => [f.folderId, f]));
  if (!byId.has(rootId)) return null;
  const parents = parentsOf(folders);
  const made = new Map<string, { node: FolderAnswer; depth: number }>();
  for (const id of subtreeOf(rootId, childrenOf(parents))) {
    const parent = id === rootId ? undefined : made.get(parents.get(id)!);
    // Below the depth asked for: left out (its parent, at that depth, has no subFolders to put it in).
    if (parent && parent.node.subFolders === undefined) continue;
    const depth = parent ? parent.depth + 1 : 0;
    const node: FolderAnswer = depth < maxDepth ? { ...shown(byId.get(id)!), subFolders: [] } : shown(byId.get(id)!);
    made.set(id, { node, depth });
    if (parent) parent.node.subFolders!.push(node);
  }
  return made.get(rootId)!.node;
}

/**
 * folders/get: every folder, flat; or, with folderId, that folder and its subtree ([] when it does not exist):
 * on v1 all of it, on /v2 `maxDepth` levels (1 by default), as each page says.
 */
export function getFolders({ store }: Services, caller: Caller, input: FoldersGetV2Data): Maybe<FolderAnswer[]> {
  const { organizationId } = input;
  return then(store.getFolders(caller.id, organizationId), (folders) => {
    const shown = shownAs(input, caller, parentsOf(folders));
    if (input.folderId == null) return folders.map(shown);
    const depth = input.maxDepth ?? (input.v2 ? 1 : Number.POSITIVE_INFINITY);
    const tree = subtree(folders, input.folderId, organizationId, depth, shown);
    return tree ? [tree] : [];
  });
}
