// The benchmarked operations: each makes a fresh request body per request, spread over the dataset,
// so reads hit cold and warm rows alike and writes do not collide.
import {
  BENCH_CREDENTIALS,
  docOf,
  HEAVY_ORG,
  HEAVY_USER,
  isMixed,
  listDocOf,
  MIXED_EVERY,
  org,
  threadOf,
  userOf,
  type Scale,
} from './dataset.js';
import {
  authorizationOf,
  type EndUserRef,
  FOLDER_DEPTH,
  FOLDER_MEMBERS,
  fileInFolderChain,
  MEMBERS,
  MEMBERS_NEVER_HELD,
} from './end-users.js';

export interface Operation {
  name: string;
  kind: 'baseline' | 'read' | 'write' | 'refused' | 'spread';
  method: 'GET' | 'POST';
  path: string;
  /** A request body (the `data` member), made for each request; `user` is the request's, when the row has `users`. */
  body?: (scale: Scale, n: number, user?: EndUserRef) => unknown;
  /** The status every answer should have (200 unless said). */
  expect?: number;
  /** How many different bodies wrk sends in turn (4000 unless said). */
  bodies?: number;
  /** Headers instead of the bench tenant's credentials. */
  headers?: Record<string, string>;
  /** The users the requests are about, in turn: the n-th request is the (n mod length)-th's. */
  users?: readonly EndUserRef[];
  /**
   * Each request carries its user's end-user token (docs/api.md, "End users") instead of the server credentials:
   * minted once the server runs (bench/end-users.ts).
   */
  endUser?: boolean;
  /** A raw body of this many bytes of this type instead of JSON (the upload row): the same bytes every request. */
  raw?: { contentType: string; bytes: number };
  /** What the row needs in the database besides the dataset, made through the running server before the rows. */
  setUp?: (url: string, scale: Scale) => Promise<void>;
}

/** The n-th request's user, for a row with users. */
export const userOfRequest = (o: Operation, n: number): EndUserRef | undefined => o.users?.[n % o.users.length];

/** The row, then the same row with each request's user's end-user token instead of the server credentials. */
const withEndUserTwin = (row: Operation): Operation[] => [row, { ...row, name: `${row.name}, end-user token`, endUser: true }];

const pick = (n: number) => Math.floor(Math.random() * n);
/** An organization whose inboxes are all listed notifications, and one whose mix in organization-wide ones. */
const plainOrg = (s: Scale): string => {
  for (;;) {
    const o = pick(s.organizations);
    if (!isMixed(o)) return org(o);
  }
};
const mixedOrg = (s: Scale): string => org(pick(s.organizations / MIXED_EVERY) * MIXED_EVERY + MIXED_EVERY - 1);
/** A random thread, as the operations on one thread name it. */
const thread = (s: Scale) => {
  const a = pick(s.threadsPerOrg);
  return { organizationId: org(pick(s.organizations)), documentId: docOf(a % s.documentsPerOrg), annotationId: threadOf(a) };
};

export const OPERATIONS: Operation[] = [
  {
    // Served by bench/baseline-server.ts, not by Marginalia: the yardstick of every ratio.
    name: 'baseline: bare Fastify POST',
    kind: 'baseline',
    method: 'POST',
    path: '/baseline',
    body: (s) => ({ organizationId: org(pick(s.organizations)), userId: userOf(pick(s.usersPerOrg)), pageSize: 10 }),
  },
  // Marginalia's cheapest route: the fixed cost of its pipeline without credentials or a database.
  { name: 'GET /healthz', kind: 'read', method: 'GET', path: '/healthz' },
  {
    name: 'notifications/get by userId',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/get',
    // A user has about 30 notifications: the first page of 10 is what an inbox shows.
    body: (s) => ({ organizationId: plainOrg(s), userId: userOf(pick(s.usersPerOrg)), pageSize: 10 }),
  },
  {
    // The same inboxes with about 10% organization-wide notifications mixed in (docs/api.md,
    // "Addressing and read state").
    name: 'notifications/get by userId, 10% organization-wide',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/get',
    body: (s) => ({ organizationId: mixedOrg(s), userId: userOf(pick(s.usersPerOrg)), pageSize: 10 }),
  },
  {
    // One user with 10,000 notifications (1,000 organization-wide), 500 unread: the bell's number.
    name: 'notifications/count/get, 10,000 notifications',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/count/get',
    bodies: 1,
    body: () => ({ organizationId: HEAVY_ORG, userId: HEAVY_USER }),
  },
  {
    name: 'notifications/count/get, one document',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/count/get',
    body: (s) => ({
      organizationId: mixedOrg(s),
      userId: userOf(pick(s.usersPerOrg)),
      documentId: docOf(pick(s.documentsPerOrg)),
    }),
  },
  {
    // The first page of what that user has not read: 500 unread among 10,000.
    name: 'notifications/get unread:true, 10,000 notifications',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/get',
    bodies: 1,
    body: () => ({ organizationId: HEAVY_ORG, userId: HEAVY_USER, unread: true, pageSize: 10 }),
  },
  {
    // The fixed cost of an authenticated request: auth, one indexed probe that finds nothing, the envelope.
    name: 'notifications/get, empty result',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/get',
    body: (s) => ({ organizationId: org(pick(s.organizations)), userId: 'nobody-at-all', pageSize: 10 }),
  },
  {
    name: 'notifications/get by documentId',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/get',
    body: (s) => ({ organizationId: org(pick(s.organizations)), documentId: docOf(pick(s.documentsPerOrg)) }),
  },
  {
    name: 'comments/get whole thread',
    kind: 'read',
    method: 'POST',
    path: '/v1/commentannotations/comments/get',
    body: thread,
  },
  {
    name: 'comments/get by commentIds',
    kind: 'read',
    method: 'POST',
    path: '/v1/commentannotations/comments/get',
    body: (s) => {
      return {
        ...thread(s),
        commentIds: [2, 5, 8],
      };
    },
  },
  {
    // A document's thread list: the newest 20 of its 25 threads of 1-5 comments, with their comments.
    // Readers of a document ask for it again and again: after the first read of each of the 2000 pages
    // it is held in memory (services/thread-pages.ts) while nothing in the document changes.
    name: 'commentannotations/get (page of 20 threads)',
    kind: 'read',
    method: 'POST',
    path: '/v1/commentannotations/get',
    body: (s) => ({
      organizationId: org(pick(s.organizations)),
      documentId: listDocOf(pick(s.listDocumentsPerOrg)),
      pageSize: 20,
    }),
  },
  {
    // The same page asked with a filter no read has used before (a status id that matches nothing, beside
    // the threads' own), so the page held in memory never answers it: the page read and its render.
    // wrk sends the 50,000 bodies in turn, more pages than the cache holds (64 MB: about 2,000), so a
    // page is always let go before it is asked again.
    name: 'commentannotations/get (page of 20 threads, never read before)',
    kind: 'read',
    bodies: 50_000,
    method: 'POST',
    path: '/v1/commentannotations/get',
    body: (s, n) => ({
      organizationId: org(pick(s.organizations)),
      documentId: listDocOf(pick(s.listDocumentsPerOrg)),
      pageSize: 20,
      statusIds: ['OPEN', `unseen-${n}-${pick(1e9)}`],
    }),
  },
  // What an end user's request costs over the server credentials' (docs/api.md, "End users"; bench/README.md): the
  // same bodies for the same users, once with the server credentials and once with each request's user's token.
  ...withEndUserTwin({
    name: 'commentannotations/get (page of 20 threads), 200 members',
    kind: 'read',
    method: 'POST',
    path: '/v1/commentannotations/get',
    users: MEMBERS,
    body: (s, _n, u) => ({ organizationId: u!.organizationId, documentId: listDocOf(pick(s.listDocumentsPerOrg)), pageSize: 20 }),
  }),
  ...withEndUserTwin({
    // The access check's recursive walk: the documents are restricted, in the deepest of a chain of folders, and
    // the users are members of the top one (bench/end-users.ts).
    name: `commentannotations/get (page of 20 threads), in a folder ${FOLDER_DEPTH} deep`,
    kind: 'read',
    method: 'POST',
    path: '/v1/commentannotations/get',
    users: FOLDER_MEMBERS,
    setUp: fileInFolderChain,
    body: (s, _n, u) => ({ organizationId: u!.organizationId, documentId: listDocOf(pick(s.listDocumentsPerOrg)), pageSize: 20 }),
  }),
  // The token's own cost: an inbox count reads no document, so there is no access check.
  ...withEndUserTwin({
    name: 'notifications/count/get by userId, 200 members',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/count/get',
    users: MEMBERS,
    body: (_s, _n, u) => ({ organizationId: u!.organizationId, userId: u!.userId }),
  }),
  {
    // The same with tokens the server has not held verified: each request checks its token's signature.
    name: 'notifications/count/get by userId, 200 members, end-user token never held',
    kind: 'read',
    method: 'POST',
    path: '/v1/notifications/count/get',
    users: MEMBERS_NEVER_HELD,
    bodies: MEMBERS_NEVER_HELD.length,
    endUser: true,
    body: (_s, _n, u) => ({ organizationId: u!.organizationId, userId: u!.userId }),
  },
  {
    // Badges for 50 documents (each with one thread of 10 comments), for one user.
    name: 'commentannotations/count/get (50 documents)',
    kind: 'read',
    method: 'POST',
    path: '/v1/commentannotations/count/get',
    body: (s) => {
      const first = pick(s.documentsPerOrg - 50);
      return {
        organizationId: org(pick(s.organizations)),
        documentIds: Array.from({ length: 50 }, (_, i) => docOf(first + i)),
        userId: userOf(pick(s.usersPerOrg)),
      };
    },
  },
  {
    name: 'users/update (1 user)',
    kind: 'write',
    method: 'POST',
    path: '/v1/users/update',
    body: (s, n) => ({
      organizationId: org(pick(s.organizations)),
      users: [{ userId: userOf(pick(s.usersPerOrg)), name: `Renamed ${n}` }],
    }),
  },
  {
    name: 'users/update (100 users)',
    kind: 'write',
    method: 'POST',
    path: '/v1/users/update',
    body: (s, n) => ({
      organizationId: org(pick(s.organizations)),
      users: Array.from({ length: 100 }, (_, u) => ({ userId: userOf(u % s.usersPerOrg), email: `u${u}.${n}@example.com` })),
    }),
  },
  ...[2, 1, 10, 50].map(
    (recipients): Operation => ({
      // The write whose cost grows with its recipients: one inbox row each (the first row, 2, is the one of earlier runs).
      name: `notifications/add (${recipients} recipient${recipients === 1 ? '' : 's'})`,
      kind: 'write',
      method: 'POST',
      path: '/v1/notifications/add',
      body: (s) => {
        const actor = userOf(pick(s.usersPerOrg));
        const first = pick(s.usersPerOrg);
        return {
          organizationId: org(pick(s.organizations)),
          documentId: docOf(pick(s.documentsPerOrg)),
          actionUser: { userId: actor },
          displayHeadlineMessageTemplate: '{actionUser} replied to you',
          displayHeadlineMessageTemplateData: { actionUser: { userId: actor } },
          // Distinct users of the organization, from a random one on.
          notifyUsers: Array.from({ length: recipients }, (_, i) => ({ userId: userOf((first + i) % s.usersPerOrg) })),
        };
      },
    }),
  ),
  {
    name: 'comments/add',
    kind: 'write',
    method: 'POST',
    path: '/v1/commentannotations/comments/add',
    body: (s, n) => {
      return {
        ...thread(s),
        commentData: [{ commentHtml: `<p>Reply ${n}, <b>agreed</b>.</p>`, from: { userId: userOf(pick(s.usersPerOrg)) } }],
      };
    },
  },
  {
    // Reactions (issue 41): a user's emoji on the first comment of a thread; the bodies repeat in turn, so some
    // adds find the reaction there already (the idempotent path: no row, no event).
    name: 'reaction add',
    kind: 'write',
    method: 'POST',
    path: '/v1/commentannotations/reactions/add',
    body: (s) => {
      return {
        ...thread(s),
        commentId: 1,
        icon: ['👍', '🎉', '❤️', '😄', '🚀', '👀', '👍🏽', 'RAISED_HANDS'][pick(8)]!,
        userId: userOf(pick(s.usersPerOrg)),
      };
    },
  },
  {
    // Ranked full-text search in one organization of the large dataset: every comment's text there has
    // "paragraph" (about 1,150 comments), so each request ranks all of them and cuts 20 snippets: the worst case of
    // a word in every comment. Its twin below names one thread's id, which a few comments have.
    name: 'search/get (page of 20), a word in every comment of an organization',
    kind: 'read',
    method: 'POST',
    path: '/v1/search/get',
    body: (s) => ({ organizationId: org(pick(s.organizations)), query: 'paragraph', pageSize: 20 }),
  },
  {
    name: 'search/get (page of 20), a thread id (thread-N): its comments and a few more',
    kind: 'read',
    method: 'POST',
    path: '/v1/search/get',
    body: (s) => ({ organizationId: org(pick(s.organizations)), query: threadOf(pick(s.threadsPerOrg)), pageSize: 20 }),
  },
];

/** The operations bench/floor-server.ts serves: those of the rows that --floor measures at their floor too. */
export const FLOOR_PATHS: ReadonlySet<string> = new Set([
  '/v1/notifications/get',
  '/v1/notifications/add',
  '/v1/users/update',
  '/v1/commentannotations/get',
  '/v1/commentannotations/comments/add',
]);

export const HEADERS = {
  'content-type': 'application/json',
  'x-service-api-key': BENCH_CREDENTIALS.apiKey,
  'x-service-auth-token': BENCH_CREDENTIALS.authToken,
};

// An upload (docs/api.md, "Attachments"): 1 MB of text streamed to the server's folder, hashed and stored; a new
// file each time (they expire unattached, long after the run; run.ts gives the server a folder it removes).
OPERATIONS.push({
  name: 'upload of a 1 MB file',
  kind: 'write',
  method: 'POST',
  path: `/v1/attachments/upload?organizationId=${org(0)}&documentId=${docOf(0)}&name=bench.txt`,
  raw: { contentType: 'text/plain', bytes: 1 << 20 },
  headers: { ...HEADERS, 'content-type': 'text/plain' },
});

// The two 401 paths: no database at all, and a credential check that fails. The bench server runs with
// MARGINALIA_AUTH_FAILURE_FLOOR_MS=0, so these rows measure the work, not the floor.
OPERATIONS.push(
  {
    name: '401, a header missing',
    kind: 'refused',
    method: 'POST',
    path: '/v1/notifications/get',
    expect: 401,
    headers: { 'content-type': 'application/json', 'x-service-api-key': BENCH_CREDENTIALS.apiKey },
    body: (s) => ({ organizationId: org(pick(s.organizations)), userId: userOf(pick(s.usersPerOrg)) }),
  },
  {
    name: '401, a wrong token',
    kind: 'refused',
    method: 'POST',
    path: '/v1/notifications/get',
    expect: 401,
    headers: { ...HEADERS, 'x-service-auth-token': 'bench-wrong-token-0123456789' },
    body: (s) => ({ organizationId: org(pick(s.organizations)), userId: userOf(pick(s.usersPerOrg)) }),
  },
);

/**
 * The operation-count row (run.ts): requests spread over every operation a server has, in turn. A cheap
 * read gets a body that finds rows; every other operation gets `{}`, which its schema refuses (400) after
 * the credentials and the body were read, so the request passes the operation's hooks, validator and
 * error answer without writing anything.
 */
export const SPREAD: Operation = {
  name: 'every operation in turn, the app alone vs with its operations registered twice more',
  kind: 'spread',
  method: 'POST',
  path: '/v1/notifications/get',
};
const SPREAD_READS: Record<string, (s: Scale) => unknown> = {
  '/v1/notifications/get': (s) => ({ organizationId: plainOrg(s), userId: userOf(pick(s.usersPerOrg)), pageSize: 10 }),
  '/v1/notifications/count/get': (s) => ({ organizationId: plainOrg(s), userId: userOf(pick(s.usersPerOrg)) }),
  '/v1/commentannotations/comments/get': thread,
  '/v1/commentannotations/get': (s) => ({
    organizationId: org(pick(s.organizations)),
    documentId: listDocOf(pick(s.listDocumentsPerOrg)),
    pageSize: 20,
  }),
  '/v1/commentannotations/count/get': (s) => ({
    organizationId: org(pick(s.organizations)),
    documentIds: [docOf(pick(s.documentsPerOrg))],
    userId: userOf(pick(s.usersPerOrg)),
  }),
  '/v1/organizations/get': () => ({ pageSize: 10 }),
  '/v1/organizations/documents/get': (s) => ({ organizationId: org(pick(s.organizations)), pageSize: 10 }),
  '/v1/organizations/folders/get': (s) => ({ organizationId: org(pick(s.organizations)) }),
  '/v1/users/get': (s) => ({ organizationId: org(pick(s.organizations)), pageSize: 10 }),
  '/v1/webhooks/get': () => ({}),
};
/** The request of the spread row to `path` (/v1/... or a copy's /copyN/v1/...). */
export const spreadBody = (path: string, s: Scale): unknown => SPREAD_READS[path.slice(path.indexOf('/v1/'))]?.(s) ?? {};

/** The headers of an operation's request (of `user`'s, for a row with users). */
export const headersOf = (o: Operation, user?: EndUserRef): Record<string, string> => {
  if (o.endUser) {
    if (!user) throw new Error(`${o.name}: an end-user row needs users`);
    return { 'content-type': 'application/json', authorization: authorizationOf(user) };
  }
  return o.headers ?? (o.body || o.kind === 'spread' ? HEADERS : {});
};
