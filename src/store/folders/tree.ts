// A folder tree in memory: parents by folder, walked without recursion, so a tree of any depth or
// width costs no stack (SPEC 12: 50 levels deep and 10,000 wide are ordinary).

/** Each folder's parent (null: the top). */
export type Parents = Map<string, string | null>;

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
