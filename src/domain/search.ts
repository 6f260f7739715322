// Full-text search of comment and notification text (docs/api.md, "search/get"): the words of a query, as both
// databases' indexes take them, and what a search asks and finds. Pure: no I/O.
import { headlineText } from './email.js';

/** What a hit is. */
export type SearchKind = 'comment' | 'notification';

/** A search as the store runs it: the words (each matched as the start of a word of the text, all of them). */
export interface TextSearch {
  organizationId: string;
  words: readonly string[];
  kinds: readonly SearchKind[];
  documentIds: readonly string[] | null;
  folderIds: readonly string[] | null;
  userIds: readonly string[] | null;
  createdAfter: number | null;
  createdBefore: number | null;
  /** An end user's search: only notifications in this user's inbox; null: every notification of the organization. */
  recipient: string | null;
  offset: number;
  limit: number;
}

/** One hit: where it is, who wrote it, when, its text (the snippet is cut from it) and its score (higher: better). */
export interface FoundText {
  kind: SearchKind;
  documentId: string | null;
  annotationId: string | null;
  commentId: number | null;
  notificationId: string | null;
  userId: string;
  time: number;
  text: string;
  score: number;
}

/**
 * Folds text as both indexes do (SQLite's search_terms, migration 48; PostgreSQL's search_words, migration 44): the
 * combining accents of the canonical decomposition dropped, lower case.
 */
export const foldText = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Where a word of text starts and ends (letters, digits and marks; anything else separates words). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The words of a query: folded, each once, in order. Quotes, stars, parentheses, NEAR, colons: separators or words. */
export function queryWords(query: string): string[] {
  const words = new Set<string>();
  for (const m of foldText(query).matchAll(WORD)) words.add(m[0]);
  return [...words];
}

/** The length in characters, as typed, of the query's longest word. */
export const longestWord = (query: string): number => Math.max(0, ...Array.from(query.matchAll(WORD), (m) => [...m[0]].length));

/** The spans of `text` whose folded word starts with one of `words` (sorted, not overlapping). */
export function matchedSpans(text: string, words: readonly string[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(WORD)) {
    const folded = foldText(m[0]);
    if (words.some((w) => folded.startsWith(w))) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

/** The folded words of a text, in order: what a query's words are matched against. */
const textWords = (text: string): string[] => [...text.matchAll(WORD)].map((m) => foldText(m[0])).filter((w) => w !== '');

/** Whether every word starts a word of `text`: what the indexes match (the property test's model). */
export const matchesAll = (text: string, words: readonly string[]): boolean => {
  const found = textWords(text);
  return words.every((w) => found.some((f) => f.startsWith(w)));
};

/**
 * SQLite: the terms a text is indexed by (migration 48), each of its folded words with its organization's scope in
 * front (`17_reunion`), so that a word's entries and a prefix's terms are the organization's own and a search reads
 * no other tenant's. A query's words are matched as `<scope>_<word>*` (store/search/sql.ts). Registered with every
 * connection as the SQL function search_terms(scope, text) (store/dialect/sqlite-functions.ts).
 */
export const indexTerms = (scope: number | bigint, text: string): string =>
  textWords(text)
    .map((w) => `${scope}_${w}`)
    .join(' ');

/**
 * A notification's headline as a reader sees it: the template with its data filled in, the acting user's name where
 * the data names them; a placeholder the data has no value for is left out (it is the template's markup, not words
 * of the text), and runs of white space are one space. Stored with the notification (headline_text, migration 47)
 * and indexed with its body; written with the notification and again when its content changes, so a user renamed
 * later is found by the name the notification was written with.
 */
export function headlineOf(
  headlineTemplate: string,
  headlineData: Record<string, unknown>,
  actionUser: { userId: string; name?: string | null },
): string {
  const names = new Map(actionUser.name ? [[actionUser.userId, actionUser.name]] : []);
  return headlineText(headlineTemplate, headlineData, names, () => '')
    .replace(/\s+/g, ' ')
    .trim();
}
