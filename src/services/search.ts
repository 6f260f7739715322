// search/get (docs/api.md, "search/get"): the query as words, the filters, a page of hits best first, each with a
// snippet cut from its text with the matched words marked. The ranking is the database's; the snippet is cut here,
// the same on both databases, from the stored text (never markup: a comment's text, a notification's headline as
// read and its bodyMessage).
import { type FoundText, longestWord, matchedSpans, queryWords, type SearchKind } from '../domain/search.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { SearchGetData } from '../schemas/search.js';
import type { Services } from './context.js';
import { spell } from './member-path.js';
import { asSet, decodeKeyToken, encodeKeyToken, filterDigest, keyTuple, tupleKey } from './page-token.js';
import { filterList } from './rules.js';

/** MARGINALIA_SEARCH_MAX_QUERY_LENGTH's default: longer queries are refused. */
export const DEFAULT_SEARCH_MAX_QUERY_LENGTH = 256;
/** MARGINALIA_SEARCH_MAX_PAGE_SIZE's default: the most hits a page holds. */
export const DEFAULT_SEARCH_MAX_PAGE_SIZE = 100;
/** pageSize when the request names none. */
export const DEFAULT_SEARCH_PAGE_SIZE = 20;
/** The most words a query may have (each is one more index lookup). */
export const MAX_SEARCH_WORDS = 16;
/**
 * The longest word a query may have, in characters as typed. PostgreSQL takes no word over 2,047 bytes, its
 * organization's scope included (migration 48); a character takes at most 12 bytes once decomposed, so 128 stay
 * under that, and no reader types a word this long.
 */
export const MAX_SEARCH_WORD_LENGTH = 128;
/** A snippet shows about this many characters of the text around the first match. */
const SNIPPET_CHARS = 200;
/** ...of which about this many before it. */
const SNIPPET_LEAD = 60;

export type SearchServices = Pick<Services, 'store' | 'search'>;

export interface SearchHit {
  kind: SearchKind;
  documentId: string | null;
  annotationId?: string;
  commentId?: number;
  notificationId?: string;
  userId: string;
  time: number;
  snippet: string;
}

export interface SearchAnswer {
  hits: SearchHit[];
  nextPageToken: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A cut that does not split a surrogate pair. */
const atCodePoint = (text: string, i: number) => (i > 0 && i < text.length && /[\uDC00-\uDFFF]/.test(text[i]!) ? i + 1 : i);

/**
 * The snippet of a hit: at most about SNIPPET_CHARS of its text around its first match, HTML-escaped, each word that
 * matched in <mark>...</mark>, and … where the text was cut. Safe to put in a page as HTML: no other markup.
 */
export function snippetOf(text: string, words: readonly string[]): string {
  const spans = matchedSpans(text, words);
  const first = spans[0]?.[0] ?? 0;
  let start = text.length <= SNIPPET_CHARS ? 0 : Math.max(0, Math.min(first - SNIPPET_LEAD, text.length - SNIPPET_CHARS));
  if (start > 0) {
    // Start at a word's beginning, where one is near.
    const space = text.slice(start, first).search(/\s\S/);
    if (space >= 0) start += space + 1;
  }
  start = atCodePoint(text, start);
  const end = atCodePoint(text, Math.min(text.length, start + SNIPPET_CHARS));
  let out = start > 0 ? '…' : '';
  let at = start;
  for (const [from, to] of spans) {
    if (to <= start || from >= end) continue;
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    out += `${escapeHtml(text.slice(at, a))}<mark>${escapeHtml(text.slice(a, b))}</mark>`;
    at = b;
  }
  out += escapeHtml(text.slice(at, end));
  return end < text.length ? `${out}…` : out;
}

const hitOf = (f: FoundText, words: readonly string[]): SearchHit => ({
  kind: f.kind,
  documentId: f.documentId,
  ...(f.kind === 'comment'
    ? { annotationId: f.annotationId ?? '', commentId: f.commentId ?? 0 }
    : { notificationId: f.notificationId ?? '' }),
  userId: f.userId,
  time: f.time,
  snippet: snippetOf(f.text, words),
});

/** The query's words, refused when there are none or too many, or when the query is longer than the setting. */
function wordsOf(query: string, maxLength: number): string[] {
  if ([...query].length > maxLength)
    throw invalid(`${spell(['query'])} is longer than ${maxLength} characters (MARGINALIA_SEARCH_MAX_QUERY_LENGTH).`);
  const words = queryWords(query);
  if (words.length === 0) throw invalid(`${spell(['query'])} has no words: give at least one letter or digit.`);
  if (words.length > MAX_SEARCH_WORDS) throw invalid(`${spell(['query'])} has more than ${MAX_SEARCH_WORDS} words.`);
  if (longestWord(query) > MAX_SEARCH_WORD_LENGTH)
    throw invalid(`${spell(['query'])} has a word longer than ${MAX_SEARCH_WORD_LENGTH} characters.`);
  return words;
}

export function searchText(services: SearchServices, tenant: { id: string }, input: SearchGetData): Maybe<SearchAnswer> {
  const maxQueryLength = services.search?.maxQueryLength ?? DEFAULT_SEARCH_MAX_QUERY_LENGTH;
  const maxPageSize = services.search?.maxPageSize ?? DEFAULT_SEARCH_MAX_PAGE_SIZE;
  const words = wordsOf(input.query, maxQueryLength);
  const pageSize = input.pageSize ?? Math.min(DEFAULT_SEARCH_PAGE_SIZE, maxPageSize);
  if (pageSize > maxPageSize)
    throw invalid(`${spell(['pageSize'])} is more than ${maxPageSize} (MARGINALIA_SEARCH_MAX_PAGE_SIZE).`);
  if (input.createdAfter != null && input.createdBefore != null && input.createdAfter > input.createdBefore)
    throw invalid(`${spell(['createdAfter'])} is after ${spell(['createdBefore'])}.`);
  const kinds: SearchKind[] = input.kinds ? [...new Set(input.kinds)].sort() : ['comment', 'notification'];
  const search = {
    organizationId: input.organizationId,
    words,
    kinds,
    documentIds: filterList(input.documentIds),
    folderIds: filterList(input.folderIds),
    userIds: filterList(input.userIds),
    createdAfter: input.createdAfter ?? null,
    createdBefore: input.createdBefore ?? null,
    recipient: input.recipientUserId ?? null,
  };
  // A token is good for the same words and filters (lists as sets), whatever the page size.
  const digest = filterDigest([
    'search/get',
    ...Object.entries(search).map(([k, v]) => [k, Array.isArray(v) ? asSet(v as string[]) : v]),
  ]);
  // Ranked hits have no stable key to resume after (a score moves as the index changes): the token holds how many
  // hits came before (docs/decisions.md, "Search (issue 41)").
  const offset = input.pageToken != null ? keyTuple(decodeKeyToken(input.pageToken, digest), ['integer'])[0] : 0;
  if (offset < 0) throw invalid(`${spell(['pageToken'])} is malformed.`);
  return then(services.store.searchText(tenant.id, { ...search, offset, limit: pageSize + 1 }), (rows) => ({
    hits: rows.slice(0, pageSize).map((r) => hitOf(r, words)),
    nextPageToken: rows.length > pageSize ? encodeKeyToken(tupleKey([offset + pageSize]), digest) : null,
  }));
}
