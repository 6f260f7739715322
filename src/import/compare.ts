// The comparison an import ends with (docs/operations.md, "Importing"): per document, the threads, comments and
// unread notification marks the source shows and those here shows, and the documents where they differ.

type Json = Record<string, unknown>;

export interface DocumentCounts {
  threads: number;
  comments: number;
  /** Unread marks of the document's notifications: one per (notification, recipient) still unread. */
  unread: number;
}

export type Counts = Record<string, number>;

export function threadCounts(threads: readonly Json[]): { threads: number; comments: number } {
  let comments = 0;
  for (const t of threads) comments += Array.isArray(t.comments) ? t.comments.length : 0;
  return { threads: threads.length, comments };
}

export function unreadOf(notifications: readonly Json[]): number {
  let unread = 0;
  for (const n of notifications)
    for (const flag of Object.values((n.notifyUsersByUserId ?? {}) as Record<string, unknown>)) if (flag === true) unread++;
  return unread;
}

export interface Difference {
  document: string;
  source: DocumentCounts;
  here: DocumentCounts;
}

const same = (a: DocumentCounts, b: DocumentCounts) =>
  a.threads === b.threads && a.comments === b.comments && a.unread === b.unread;
const NONE: DocumentCounts = { threads: 0, comments: 0, unread: 0 };

/** The documents whose counts differ, in document order (a document missing on one side counts as zeros). */
export function differences(
  source: ReadonlyMap<string, DocumentCounts>,
  here: ReadonlyMap<string, DocumentCounts>,
): Difference[] {
  const documents = [...new Set([...source.keys(), ...here.keys()])].sort();
  return documents
    .map((document) => ({ document, source: source.get(document) ?? NONE, here: here.get(document) ?? NONE }))
    .filter((d) => !same(d.source, d.here));
}

const cell = (c: DocumentCounts) => `${c.threads}/${c.comments}/${c.unread}`;

/** The comparison as lines: one per document, then the verdict. */
export function comparisonLines(
  source: ReadonlyMap<string, DocumentCounts>,
  here: ReadonlyMap<string, DocumentCounts>,
): string[] {
  const documents = [...new Set([...source.keys(), ...here.keys()])].sort();
  const lines = ['document  source threads/comments/unread  here threads/comments/unread'];
  for (const d of documents) {
    const s = source.get(d) ?? NONE;
    const h = here.get(d) ?? NONE;
    lines.push(`${d}  ${cell(s)}  ${cell(h)}${same(s, h) ? '' : '  DIFFERS'}`);
  }
  const differ = differences(source, here);
  lines.push(
    differ.length === 0
      ? `All ${documents.length} documents have the same counts on both sides.`
      : `${differ.length} of ${documents.length} documents differ: ${differ.map((d) => d.document).join(', ')}`,
  );
  return lines;
}
