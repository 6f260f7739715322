// A folder tree in memory: parents by folder, walked without recursion, so a tree of any width costs
// no stack (docs/api.md, "Folders": 50 levels deep and 10,000 wide are ordinary). Depth is bounded (planned,
// below): folders/get answers a subtree nested, and JSON.stringify recurses through it.
import { invalidArgument, Refusal } from './refusal.js';
import type { AccessType, FolderWrite } from './organizations.js';

/** Each folder's parent (null: the top). */
export type Parents = Map<string, string | null>;

/**
 * The deepest a folder can be (depth: its ancestors + 1), whatever MARGINALIA_MAX_FOLDER_DEPTH says:
 * the nested subtree folders/get answers is serialized by JSON.stringify, which recurses and fails at
 * about 3,000 levels. The store enforces it in the write's transaction; the setting can only lower it.
 */
export const FOLDER_DEPTH_CEILING = 2000;

export const missingFolder = (id: string) => new Refusal('NOT_FOUND', `Folder ${id} does not exist.`);

/** Each folder's children, the top's under null. */
export function childrenOf(parents: Parents): Map<string | null, string[]> {
  const children = new Map<string | null, string[]>();
  for (const [id, parent] of parents) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(id);
    else children.set(parent, [id]);
  }
  return children;
}

/** The folder and every folder below it, the folder first, each once (breadth first, with an explicit queue). */
export function subtreeOf(root: string, children: Map<string | null, string[]>): string[] {
  const out = [root];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]!) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
    }
  }
  return out;
}

/** Whether `folder` is `under` itself or one of its ancestors: moving `folder` under it would make a cycle. */
export function isWithin(under: string, folder: string, parents: Parents): boolean {
  const seen = new Set<string>();
  for (let at: string | null | undefined = under; at != null && !seen.has(at); at = parents.get(at)) {
    if (at === folder) return true;
    seen.add(at);
  }
  return false;
}

/** A folder's depth: 1 at the top, its ancestors + 1 below (0 for null, the top itself). */
function depthOf(folder: string | null, parents: Parents): number {
  let depth = 0;
  const seen = new Set<string>();
  for (let at: string | null | undefined = folder; at != null && !seen.has(at); at = parents.get(at)) {
    seen.add(at);
    depth++;
  }
  return depth;
}

/** The levels of a folder's subtree, the folder's own included: 1 for a folder without children. */
function heightOf(folder: string, children: Map<string | null, string[]>): number {
  let level = [folder];
  let height = 0;
  const seen = new Set(level);
  while (level.length > 0) {
    height++;
    const next: string[] = [];
    for (const f of level) {
      for (const child of children.get(f) ?? []) {
        if (seen.has(child)) continue;
        seen.add(child);
        next.push(child);
      }
    }
    level = next;
  }
  return height;
}

/** One row folders/add or update writes: a folder made (`creates`) or changed, with its new parent when it `moves`. */
export interface FolderChange {
  folderId: string;
  name: string | null;
  accessType: AccessType | null;
  creates: boolean;
  moves: boolean;
  parentId: string | null;
}

/**
 * The rows of folders/add (`adds`: a folder that does not exist is made) or folders/update (it is left
 * out), checked in entry order against the tree as the entries before have left it (`parents` is kept
 * up to date). A new parent must exist (NOT_FOUND), must not be the folder or lie in its subtree, and
 * must not leave any folder deeper than `maxDepth`, a moved folder's whole subtree counted
 * (INVALID_ARGUMENT, naming the entry's member). Throws before any row is written.
 */
export function planned(parents: Parents, entries: readonly FolderWrite[], adds: boolean, maxDepth: number): FolderChange[] {
  const limit = Math.min(maxDepth, FOLDER_DEPTH_CEILING);
  let children: Map<string | null, string[]> | undefined;
  const changes: FolderChange[] = [];
  for (const [index, e] of entries.entries()) {
    const creates = !parents.has(e.folderId);
    if (creates && !adds) continue;
    const moves = creates || e.parentId !== undefined;
    const parentId = e.parentId ?? null;
    changes.push({ folderId: e.folderId, name: e.name, accessType: e.accessType ?? null, creates, moves, parentId });
    if (!moves) continue;
    const member = `data.folders[${index}].parentFolderId`;
    if (parentId !== null && !parents.has(parentId)) throw missingFolder(parentId);
    if (!creates && parentId !== null && isWithin(parentId, e.folderId, parents)) {
      throw invalidArgument(
        `${member}: folder ${parentId} is ${parentId === e.folderId ? '' : 'inside '}folder ${e.folderId}; ` +
          'a folder cannot move under itself or its own subtree.',
      );
    }
    // A new folder has no children yet; a moved one takes its subtree along.
    if (!creates) children ??= childrenOf(parents);
    const deepest = depthOf(parentId, parents) + (creates ? 1 : heightOf(e.folderId, children!));
    if (deepest > limit) {
      throw new Refusal(
        'INVALID_ARGUMENT',
        `${member}: folders may be at most ${limit} levels deep; this ${creates ? 'add' : 'move'} would make one ` +
          `${deepest} levels deep.`,
      );
    }
    if (children) {
      const old = creates ? [] : (children.get(parents.get(e.folderId) ?? null) ?? []);
      const at = old.indexOf(e.folderId);
      if (at >= 0) old.splice(at, 1);
      const siblings = children.get(parentId);
      if (siblings) siblings.push(e.folderId);
      else children.set(parentId, [e.folderId]);
    }
    parents.set(e.folderId, parentId);
  }
  return changes;
}
