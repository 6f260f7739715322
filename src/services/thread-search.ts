// /v2's commentannotations/get (docs/api.md, "Version 2"): an organization's threads, or some documents' or a
// folder's, newest (or oldest) lastUpdated first, with the v2 filters, paged; each thread as /v2 shows it
// (answers/v2-threads.ts), listed or grouped by document.
import { threadPage } from '../domain/answers/annotations.js';
import { type V2Context, v2Reactor, v2Thread } from '../domain/answers/v2-threads.js';
import { reactionsOnComments } from './reactions.js';
import { internalUserId } from '../domain/ids.js';
import type { FoundThread, ThreadSearch } from '../domain/threads.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { AnnotationsSearchData } from '../schemas/comments.js';
import { MAX_PAGE_SIZE } from '../schemas/common.js';
import { ROOT } from '../schemas/folders.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';
import { asSet, DEFAULT_PAGE_SIZE, decodeKeyToken, encodeKeyToken, filterDigest, keyTuple, tupleKey } from './page-token.js';
import { filterList, grouped } from './rules.js';

/** What the read answers: the threads (listed, or by documentId), the next page's token, the credentials version seen. */
export interface ThreadsFound {
  /** Listed (with annotationIds: one entry per id asked, null where there is none, as v1), or by documentId. */
  threads: (object | null)[] | Record<string, object[]>;
  grouped: boolean;
  nextPageToken: string | null;
  credentialsVersion: number | undefined;
}

const AGENT_FILTERS = ['agentId', 'executionId', 'agentType', 'agentSource', 'agentSuggestions', 'agentComments'] as const;

/** The request as a search (without its page): checked as the page says. */
function searchOf(input: AnnotationsSearchData): Omit<ThreadSearch, 'after' | 'limit'> {
  const agents = AGENT_FILTERS.filter((k) => input[k] != null && input[k] !== false);
  if (agents.length > 1) throw invalid(`Only one agent filter may be given: ${agents.map((k) => spell([k])).join(', ')} were.`);
  if (input.documentId != null && filterList(input.documentIds))
    throw invalid(`${spell(['documentId'])} and ${spell(['documentIds'])} cannot both be given.`);
  const folder = input.folderId == null ? undefined : input.folderId === ROOT ? null : input.folderId;
  return {
    organizationId: input.organizationId,
    documentId: input.documentId ?? null,
    documentIds: filterList(input.documentIds),
    ...(folder !== undefined ? { folder } : {}),
    annotationIds: filterList(input.annotationIds),
    locationIds: filterList(input.locationIds),
    userIds: filterList(input.userIds),
    statusIds: filterList(input.statusIds),
    mentionedUserIds: filterList(input.mentionedUserIds),
    resolvedBy: input.resolvedBy ?? null,
    agentId: input.agentId ?? null,
    executionId: input.executionId ?? null,
    agentType: input.agentType ?? null,
    agentSource: input.agentSource ?? null,
    agentOnly: input.agentComments === true || input.agentSuggestions === true,
    suggestionsOnly: input.agentSuggestions === true,
    updatedAfter: input.updatedAfter ?? null,
    updatedBefore: input.updatedBefore ?? null,
    createdAfter: input.createdAfter ?? null,
    createdBefore: input.createdBefore ?? null,
    ascending: input.order === 'asc',
  };
}

/** A page token's position: its key holds [lastUpdated, documentId, annotationId]. */
function positionOf(key: string): NonNullable<ThreadSearch['after']> {
  const [lastUpdated, documentId, annotationId] = keyTuple(key, ['integer', 'id', 'id']);
  return { lastUpdated, documentId, annotationId };
}

export function searchAnnotations(services: Services, caller: Caller, input: AnnotationsSearchData): Maybe<ThreadsFound> {
  const { store, profiles } = services;
  const search = searchOf(input);
  // Threads asked by id are answered as asked, one entry each, and not paged (as on v1).
  const ids = search.annotationIds;
  if (ids && input.pageToken != null)
    throw invalid(`${spell(['pageToken'])} cannot be used with ${spell(['annotationIds'])}: threads asked by id are not paged.`);
  // Lists as sets: their order and repeats do not make another query.
  const digest = filterDigest([
    'commentannotations/get v2',
    ...Object.entries(search).map(([k, v]) => [k, Array.isArray(v) ? asSet(v) : v]),
  ]);
  const after = input.pageToken != null ? positionOf(decodeKeyToken(input.pageToken, digest)) : null;
  // Asked by id: the threads there are at once (an id in several documents is answered with its newest; a
  // thousand rows at most).
  const pageSize = ids ? MAX_PAGE_SIZE : (input.pageSize ?? DEFAULT_PAGE_SIZE);
  const limit = ids ? MAX_PAGE_SIZE : pageSize + 1;
  return then(store.searchThreads(caller.id, { ...search, after, limit }), (rows) => {
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const nextPageToken =
      rows.length > pageSize && last
        ? encodeKeyToken(tupleKey([last.lastUpdated, last.documentId, last.annotationId]), digest)
        : null;
    const answer = threadPage(page);
    // The reactions to the page's comments (services/reactions.ts), and the profiles of the users who reacted too.
    const reacted = reactionsOnComments(services, caller, input.organizationId, page);
    return then(reacted, (reactions) =>
      then(profiles.forRows(caller.id, input.organizationId, page, [...answer.users, ...reactions.userIds]), (shown) => {
        const cx: V2Context = {
          organizationId: input.organizationId,
          profiles: shown,
          internalUserId: (userId: string) => internalUserId(caller.id, input.organizationId, userId),
          reactions: (at, commentId) => reactions.members(at, commentId, (u) => v2Reactor(u, cx)),
        };
        const threads = (JSON.parse(answer.render(caller.apiKey, shown, null)) as Record<string, unknown>[]).map((t, i) =>
          v2Thread(t, cx, page[i]),
        );
        const byDocument = input.groupByDocumentId === true;
        return {
          threads: byDocument
            ? grouped(
                page,
                (row) => row.documentId,
                (_row, i) => threads[i]!,
              )
            : ids
              ? asAsked(ids, page, threads)
              : threads,
          grouped: byDocument,
          nextPageToken,
          credentialsVersion: page[0]?.credentialsVersion,
        };
      }),
    );
  });
}

/** One entry per id asked, in the order asked, null where there is none (the newest, if several documents have it). */
function asAsked(ids: readonly string[], page: readonly FoundThread[], threads: object[]): (object | null)[] {
  const byId = new Map<string, object>();
  for (const [i, row] of page.entries()) if (!byId.has(row.annotationId)) byId.set(row.annotationId, threads[i]!);
  return ids.map((id) => byId.get(id) ?? null);
}
