// Whole comment threads (docs/api.md, "Comment threads"): read a document's threads, change, delete, count and mark
// them read.
import { threadPage } from '../domain/answers/annotations.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type {
  AnnotationsCountData,
  AnnotationsDeleteData,
  AnnotationsGetData,
  AnnotationsReadData,
  AnnotationsUpdateData,
} from '../schemas/comments.js';
import { organizationOf } from '../schemas/common.js';
import type { ThreadChange, ThreadCounts, ThreadFilters } from '../domain/threads.js';
import { userRef } from './comments.js';
import type { ThreadPageAnswer } from './thread-pages.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';
import { asSet, decodePageToken, DEFAULT_PAGE_SIZE, encodePageToken, filterDigest } from './page-token.js';
import { filterList, type ItemOutcome, itemOutcomes, orNull, requireUnique } from './rules.js';

type FilterInput = Omit<AnnotationsDeleteData, 'agentId' | 'agentSuggestions' | 'agentUrls'> &
  Partial<Pick<AnnotationsDeleteData, 'agentId' | 'agentSuggestions' | 'agentUrls'>> & { statusIds?: string[] | null };

const filtersOf = (input: FilterInput): ThreadFilters => ({
  organizationId: organizationOf(input),
  documentId: input.documentId,
  annotationIds: filterList(input.annotationIds),
  locationIds: filterList(input.locationIds),
  userIds: filterList(input.userIds),
  statusIds: filterList(input.statusIds),
  ...(input.agentId != null ? { agentId: input.agentId } : {}),
  ...(input.agentSuggestions === true ? { agentSuggestions: true } : {}),
  ...(filterList(input.agentUrls) ? { agentUrls: filterList(input.agentUrls) } : {}),
});

/** commentannotations/get's answer: its data member's bytes, the next page's token, and the credentials version the read saw. */
export interface AnnotationsPage extends ThreadPageAnswer {
  credentialsVersion: number | undefined;
}

/**
 * commentannotations/get (docs/api.md, "What a thread reads as" and "POST /v1/commentannotations/get"): a page held
 * in memory while its document and profiles are unchanged (services/thread-pages.ts: one small read), else the page
 * read and rendered, and kept.
 */
export function getAnnotations(services: Services, caller: Caller, input: AnnotationsGetData): Maybe<AnnotationsPage> {
  const { threadPages, store } = services;
  const filters = filtersOf(input);
  if (filters.annotationIds && input.pageToken != null) {
    throw invalid(`${spell(['pageToken'])} cannot be used with ${spell(['annotationIds'])}: threads asked by id are not paged.`);
  }
  // Everything the answer depends on: the filters as a page token holds them, the reader's key (it is
  // in the answer), the ids asked for (they order it), the page size and the page.
  const key = JSON.stringify([
    caller.id,
    caller.apiKey,
    ...pagedFilters(filters),
    filters.annotationIds,
    filters.annotationIds ? null : (input.pageSize ?? DEFAULT_PAGE_SIZE),
    input.pageToken ?? null,
  ]);
  if (!threadPages.has(key)) return readPage(services, caller, input, filters, key);
  const versions = store.documentVersions(caller.id, filters.organizationId, filters.documentId);
  return then(threadPages.current(key, versions), (held) =>
    held.page ? { ...held.page, credentialsVersion: held.credentialsVersion } : readPage(services, caller, input, filters, key),
  );
}

/** The filters a page of threads is read under, lists as sets: what a page token is bound to. */
const pagedFilters = (filters: ThreadFilters) => [
  'annotations',
  filters.organizationId,
  filters.documentId,
  asSet(filters.locationIds),
  asSet(filters.userIds),
  asSet(filters.statusIds),
];

/**
 * UTF-8 bytes in memory of their own: Buffer.from puts short text in a shared 8 kB pool, which a page
 * held in memory would keep whole.
 */
function bytesOf(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

function readPage(
  { store, profiles, threadPages }: Services,
  caller: Caller,
  input: AnnotationsGetData,
  filters: ThreadFilters,
  key: string,
): Maybe<AnnotationsPage> {
  const ids = filters.annotationIds;
  const digest = () => filterDigest(pagedFilters(filters));
  const token = input.pageToken != null ? decodePageToken(input.pageToken, digest()) : null;
  const after = token && { createdAt: token.timestamp, annotationId: token.notificationId };
  // By id: every thread asked for at once (at most one per id); else a page and one more, to know if more remain.
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const limit = ids ? ids.length : pageSize + 1;
  return then(store.getAnnotations(caller.id, { ...filters, after, limit }), (rows) => {
    const page = !ids && rows.length > pageSize ? rows.slice(0, pageSize) : rows;
    const last = page[page.length - 1];
    const nextPageToken =
      !ids && rows.length > pageSize && last
        ? encodePageToken({ timestamp: last.createdAt, notificationId: last.annotationId }, digest())
        : null;
    const answer = threadPage(page);
    return then(profiles.forRows(caller.id, filters.organizationId, page, answer.users), (shown) => {
      const data = bytesOf(answer.render(caller.apiKey, shown, ids));
      // A read that found no thread returned no versions (and costs little): it is not kept.
      const first = rows[0];
      if (first) {
        const versions = { documentVersion: first.documentVersion, profileVersion: first.profileVersion };
        threadPages.keep(key, versions, { data, nextPageToken });
      }
      return { data, nextPageToken, credentialsVersion: first?.credentialsVersion };
    });
  });
}

type ThreadOutcome = ItemOutcome<string>;
const threadMessages = (done: string) => ({ done, missing: 'Annotation not found.' });

const CHANGEABLE = [
  'status',
  'location',
  'locationId',
  'context',
  'color',
  'assignedTo',
  'priority',
  'targetElement',
  'resolvedByUserId',
  'statusUpdatedByUserId',
] as const;

/**
 * commentannotations/update (docs/api.md): the matching threads change in one transaction: the members
 * of `updatedData`, and the authors `updateUsers` replaces (docs/decisions.md); one of them at least.
 */
export function updateAnnotations(
  { store, clock }: Services,
  caller: Caller,
  input: AnnotationsUpdateData,
): Maybe<Record<string, ThreadOutcome>> {
  const u = input.updatedData ?? undefined;
  const swaps = input.updateUsers ?? undefined;
  if (!u && !swaps) throw invalid(`${spell(['updatedData'])} or ${spell(['updateUsers'])} is required.`);
  if (u && !CHANGEABLE.some((k) => u[k] !== undefined)) {
    throw invalid(`${spell(['updatedData'])} needs at least one of ${CHANGEABLE.join(', ')}.`);
  }
  if (swaps) requireUnique(swaps, (s) => s.oldUser.userId, ['updateUsers'], 'oldUser.userId');
  const change: ThreadChange = { ...(u ? changeOf(u) : {}), ...(swaps ? { users: swaps.map(swapOf) } : {}) };
  const filters = filtersOf(input);
  return then(store.updateAnnotations(caller.id, filters, change, clock()), ({ ids }) =>
    itemOutcomes(filters.annotationIds, ids, threadMessages('Annotations updated successfully')),
  );
}

const swapOf = ({ oldUser, newUser }: NonNullable<AnnotationsUpdateData['updateUsers']>[number]) => ({
  from: oldUser.userId,
  to: userRef(newUser),
});

/** updatedData as a change: undefined leaves a member as it is; null clears it; status is never null (its schema). */
function changeOf(u: NonNullable<AnnotationsUpdateData['updatedData']>): ThreadChange {
  return {
    ...(u.status !== undefined ? { status: u.status } : {}),
    ...(u.location !== undefined ? { location: u.location } : {}),
    ...(u.locationId !== undefined ? { locationId: u.locationId } : {}),
    ...(u.context !== undefined ? { context: u.context } : {}),
    ...(u.color !== undefined ? { color: u.color } : {}),
    ...(u.assignedTo !== undefined ? { assignedTo: u.assignedTo === null ? null : userRef(u.assignedTo) } : {}),
    ...(u.priority !== undefined ? { priority: orNull(u.priority) } : {}),
    ...(u.targetElement !== undefined ? { targetElement: orNull(u.targetElement) } : {}),
    // A thread moved to a status that is not terminal is no longer resolved: it keeps no resolver (the /v2 page).
    ...(u.status !== undefined && !isTerminal(u.status) && u.resolvedByUserId === undefined ? { resolvedBy: null } : {}),
    ...(u.resolvedByUserId !== undefined ? { resolvedBy: u.resolvedByUserId } : {}),
    ...(u.statusUpdatedByUserId !== undefined ? { statusUpdatedBy: u.statusUpdatedByUserId } : {}),
  };
}

const isTerminal = (status: object): boolean => (status as { type?: unknown }).type === 'terminal';

/**
 * commentannotations/delete (docs/api.md, "POST /v1/commentannotations/delete"): the matching threads, with their
 * comments.
 */
export function deleteAnnotations(
  { store, clock }: Services,
  caller: Caller,
  input: AnnotationsDeleteData,
): Maybe<Record<string, ThreadOutcome>> {
  const filters = filtersOf(input);
  return then(store.deleteAnnotations(caller.id, filters, clock()), (done) =>
    itemOutcomes(filters.annotationIds, done, threadMessages('Deleted Successfully')),
  );
}

/**
 * commentannotations/count/get (docs/api.md, "POST /v1/commentannotations/count/get"): by documentId, in the order
 * asked and each once, zeros for a document without threads; the store writes the JSON text
 * (store.countAnnotations).
 */
export function countAnnotations({ store }: Services, caller: Caller, input: AnnotationsCountData): Maybe<ThreadCounts> {
  const documentIds = [...new Set(input.documentIds)];
  return store.countAnnotations(caller.id, organizationOf(input), documentIds, input.userId, filterList(input.statusIds));
}

/**
 * commentannotations/read (docs/api.md, "POST /v1/commentannotations/read"): marks threads read by one user as of
 * now.
 */
export function markAnnotationsRead(
  { store, clock }: Services,
  caller: Caller,
  input: AnnotationsReadData,
): Maybe<{ read: number }> {
  const marked = store.markAnnotationsRead(
    caller.id,
    organizationOf(input),
    input.documentId,
    input.userId,
    filterList(input.annotationIds),
    clock(),
  );
  return then(marked, (read) => ({ read }));
}
