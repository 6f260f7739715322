// What the comment-thread route tests (test/routes/annotations.*.test.ts) share: the seven operations of
// the thread operations beyond add, a comment builder, the resolved status, unique ids, a JSON preview for
// assertion messages, and the elements of an HTML fragment.
import { Parser } from 'htmlparser2';
import { PATHS } from './app.js';

/** The seven thread operations that read, change, delete, count and mark read. */
export const THREAD_OPS = [
  PATHS.annotationsGet,
  PATHS.annotationsUpdate,
  PATHS.annotationsDelete,
  PATHS.annotationsCount,
  PATHS.annotationsRead,
  PATHS.commentsUpdate,
  PATHS.commentsDelete,
] as const;

/** The terminal status a thread is resolved with. */
export const RESOLVED = { id: 'RESOLVED', name: 'Resolved', type: 'terminal' };

let seq = 0;
/** An id unique within the test run: `prefix-N`. */
export const uniq = (prefix: string) => `${prefix}-${++seq}`;

/** A JSON preview of a value for assertion messages. */
export const js = (x: unknown) => String(JSON.stringify(x)).slice(0, 800);

/** A comment as callers write it in commentData: text, the author's userId, and any other members. */
export const say = (commentText: string, userId = 'p', extra: Record<string, unknown> = {}) => ({
  commentText,
  from: { userId },
  ...extra,
});

/** The keyed entry of update and delete for an annotation that is not there. */
export const notFound = (id: string) => ({ success: false, id, message: 'Annotation not found.' });

/** The elements of an HTML fragment with their attributes, entities decoded. */
export function elements(html: string): { name: string; attribs: Record<string, string> }[] {
  const out: { name: string; attribs: Record<string, string> }[] = [];
  const parser = new Parser({ onopentag: (name, attribs) => out.push({ name, attribs }) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out;
}
