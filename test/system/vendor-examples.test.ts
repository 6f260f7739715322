// Every example of the original service's v1 reference (../shared/vendor/examples-v1.json: 47 pages,
// 109 requests), replayed against the real server on each database, with the vendor's header names
// (x-velt-api-key, x-velt-auth-token, set as MARGINALIA_API_KEY_HEADERS / _AUTH_TOKEN_HEADERS), and
// each answer compared with the one its page documents (helpers/vendor-replay.ts). Each example runs in
// a tenant of its own, after writing the data its documented answer shows (SETUPS). Where a page cannot
// be followed as printed (a placeholder that cannot be real, a page whose answer names another id than
// its request), the example's `notes` say what was done and why (docs/decisions.md). Ends with a table,
// per page, of the examples answered as printed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../src/clock.js';
import { UNAVAILABLE_PATHS } from '../../src/operations/unavailable.js';
import { CONTRACT } from '../../src/schemas/operations/index.js';
import { createTenant, type IssuedCredentials } from '../../src/services/credentials.js';
import { postBody, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';
import {
  compareAnswer,
  EXAMPLES_V1,
  EXAMPLES_V2,
  type Expectation,
  substituted,
  type VendorExample,
  vendorPages,
} from '../helpers/vendor-replay.js';

const PAGES = vendorPages();
const skip = PAGES ? false : `the vendor's examples are not beside this clone (${EXAMPLES_V1})`;
// CI replays them: there, their absence fails instead of skipping.
if (skip && process.env.MARGINALIA_TEST_REQUIRE_VENDOR) throw new Error(`MARGINALIA_TEST_REQUIRE_VENDOR is set, but ${skip}`);

const API_KEY_HEADER = 'x-velt-api-key';
const AUTH_TOKEN_HEADER = 'x-velt-auth-token';

const ORG = 'yourOrganizationId';
const DOC = 'yourDocumentId';
const USER = 'yourUserId';

/** What a setup writes with, and what it leaves for the example. */
interface Context {
  /** POST {data} as this example's tenant; the answer must be a success. */
  call(path: string, data: Record<string, unknown>): Promise<any>;
  /** Strings of the example to replace (placeholders that cannot be real), each with why. */
  replace(placeholder: string, value: string, why: string): void;
}

interface Plan {
  setup?: (ctx: Context, example: VendorExample, index: number) => Promise<void>;
  expect?: (example: VendorExample, index: number) => Expectation;
}

const say = (text: string, userId = USER, extra: Record<string, unknown> = {}) => ({
  commentText: text,
  from: { userId, name: 'User Name', email: 'user@example.com' },
  ...extra,
});

/** A thread of `doc` (of no organization when `org` is null): at locationx, by yourUserId, with a color. */
async function thread(
  ctx: Context,
  annotationId: string,
  org: string | null = ORG,
  doc = DOC,
  extra: Record<string, unknown> = {},
) {
  await ctx.call('/v1/commentannotations/add', {
    organizationId: org,
    documentId: doc,
    commentAnnotations: [
      {
        annotationId,
        locationId: 'locationx',
        color: '#00FF00',
        status: { id: 'OPEN', name: 'Open', color: '#0000FF', type: 'default' },
        commentData: [say('This is a sample comment text.')],
        ...extra,
      },
    ],
  });
}

const notification = (extra: Record<string, unknown> = {}) => ({
  organizationId: ORG,
  documentId: DOC,
  notificationId: 'yourNotificationId',
  locationId: 'yourLocationId',
  actionUser: { userId: USER, name: 'User Name', email: 'user@example.com' },
  displayHeadlineMessageTemplate:
    'This is main template, you can pass variables using curly brackets like this: {actionUser}, {recipientUser}, ' +
    '{yourCustomVariableWithStringValue}',
  displayHeadlineMessageTemplateData: {
    actionUser: { userId: USER, name: 'User Name', email: 'user@example.com' },
    recipientUser: { userId: 'recipientUserId', name: 'Recipient Name', email: 'recipient@example.com' },
    yourCustomVariableWithStringValue: 'Variable will be replaced with this text',
  },
  displayBodyMessage: 'This is body message (Secondary message)',
  notifyUsers: [{ userId: USER }],
  ...extra,
});

const users = (...ids: string[]) => ids.map((userId) => ({ userId, name: 'User Name', email: 'user@email.com' }));

/** The threads' createdAt and lastUpdated: integer ms, where v1's pages print ISO text (docs/decisions.md). */
const THREAD_TIMES = ['data[].createdAt', 'data[].lastUpdated'];

/** What each page's examples need written first, and how their answers are compared. */
const SETUPS: Record<string, Plan> = {
  '/v1/auth/token/get': {},
  '/v1/commentannotations/add': {
    expect: () => ({
      generatedKeys: true,
      loose: ['annotationId'],
      note: 'keyed by the annotationId the service made, as the page\'s "-O0mpUziLcBwzREvZKs6" is',
    }),
  },
  '/v1/commentannotations/delete': {
    setup: async (ctx, _ex, i) => thread(ctx, 'yourAnnotationId1', i < 6 ? ORG : null),
    expect: () => ({
      loose: ['id'],
      note:
        'the page\'s entry for yourAnnotationId1 says "id": "yourAnnotationId" (its typo): compared by type; ' +
        'examples 7-12 in a document without an organization',
    }),
  },
  '/v1/commentannotations/count/get': {
    // The page's counts, made: DOC_1 has 4 threads, 2 of them unread by 1.1; DOC_2 has 2, read.
    setup: async (ctx) => {
      const add = (doc: string, ids: string[], status: string, by: string) =>
        ctx.call('/v1/commentannotations/add', {
          organizationId: 'ORG_ID',
          documentId: doc,
          commentAnnotations: ids.map((annotationId) => ({
            annotationId,
            status: { id: status, name: status, type: 'default' },
            commentData: [say('x', by)],
          })),
        });
      await add('DOC_1', ['t1', 't2', 't3', 't4'], 'OPEN', 'someone-else');
      await add('DOC_1', ['closed'], 'RESOLVED', 'someone-else');
      await add('DOC_2', ['t5', 't6'], 'IN_PROGRESS', '1.1');
      await ctx.call('/v1/commentannotations/read', {
        organizationId: 'ORG_ID',
        documentId: 'DOC_1',
        userId: '1.1',
        annotationIds: ['t1', 't2'],
      });
    },
    expect: () => ({ exact: true }),
  },
  '/v1/commentannotations/get': {
    setup: async (ctx) => thread(ctx, 'yourAnnotationId1'),
    expect: () => ({ kept: THREAD_TIMES }),
  },
  '/v1/commentannotations/update': {
    setup: async (ctx, ex) => {
      await thread(ctx, 'yourAnnotationId1');
      await thread(ctx, 'yourAnnotationId2', ORG, DOC, { commentData: [say('x', 'oldUserId')] });
      if ((ex.body.data as any).updateUsers)
        await thread(ctx, 'yourAnnotationId1-of-old', ORG, DOC, { commentData: [say('x', 'oldUserId')] });
    },
  },
  '/v1/commentannotations/comments/add': { setup: async (ctx) => thread(ctx, 'yourAnnotationId') },
  '/v1/commentannotations/comments/delete': {
    setup: async (ctx) => thread(ctx, 'yourAnnotationId', ORG, DOC, { commentData: [say('x', USER, { commentId: 153783 })] }),
  },
  '/v1/commentannotations/comments/get': {
    setup: async (ctx) => thread(ctx, 'yourAnnotationId', ORG, DOC, { commentData: [say('x', USER, { commentId: 153783 })] }),
  },
  '/v1/commentannotations/comments/update': {
    setup: async (ctx) =>
      thread(ctx, 'yourAnnotationId', ORG, DOC, {
        commentData: [say('x', USER, { commentId: 153783 }), say('y', USER, { commentId: 607395 })],
      }),
  },
  '/v1/organizations/documents/add': {
    setup: async (ctx) => folder(ctx, 'yourFolderId'),
  },
  '/v1/organizations/documents/delete': {
    setup: async (ctx) =>
      ctx.call('/v1/organizations/documents/add', { organizationId: ORG, documents: [{ documentId: 'yourDocumentId1' }] }),
  },
  '/v1/organizations/documents/get': {
    setup: async (ctx) =>
      ctx.call('/v1/organizations/documents/add', {
        organizationId: ORG,
        documents: [{ documentId: 'yourDocumentId1', documentName: 'yourDocumentName' }],
      }),
  },
  '/v1/organizations/documents/move': {
    setup: async (ctx) => folder(ctx, 'targetFolderId'),
  },
  '/v1/organizations/documents/access/update': {
    expect: () => ({
      keyMap: { yourDocumentId: 'yourDocumentId1, yourDocumentId2' },
      note: 'the request names one documentId, "yourDocumentId1, yourDocumentId2", which the page\'s answer keys yourDocumentId',
    }),
  },
  '/v1/organizations/documents/access/disablestate/update': {},
  '/v1/organizations/documents/update': {
    setup: async (ctx) => ctx.call('/v1/organizations/documents/add', { organizationId: ORG, documents: [{ documentId: DOC }] }),
  },
  '/v1/organizations/folders/add': {
    setup: async (ctx) => folder(ctx, 'yourParentFolderId'),
  },
  '/v1/organizations/folders/get': {
    setup: async (ctx) =>
      ctx.call('/v1/organizations/folders/add', {
        organizationId: ORG,
        folders: [
          { folderId: 'yourFolderId', folderName: 'Folder 1' },
          { folderId: 'childFolderId1', folderName: 'Child Folder 1', parentFolderId: 'yourFolderId' },
        ],
      }),
    // The page documents one answer for each of its two examples.
    expect: (_ex, i) => ({ answer: i }),
  },
  '/v1/organizations/folders/access/update': {
    setup: async (ctx) => folder(ctx, 'yourFolderId1, yourFolderId2'),
    expect: () => ({
      keyMap: { yourFolderId: 'yourFolderId1, yourFolderId2' },
      note: 'the request names one folderId, "yourFolderId1, yourFolderId2", which the page\'s answer keys yourFolderId',
    }),
  },
  '/v1/organizations/folders/update': {
    setup: async (ctx) =>
      ctx.call('/v1/organizations/folders/add', {
        organizationId: ORG,
        folders: [{ folderId: 'yourFolderId' }, { folderId: 'yourParentFolderId' }],
      }),
  },
  '/v1/users/data/delete': {
    setup: async (ctx) => {
      for (const organizationId of ['yourOrganizationId1', 'yourOrganizationId2'])
        await ctx.call('/v1/users/add', { organizationId, users: users('yourUserId1', 'yourUserId2') });
    },
  },
  '/v1/users/data/get': {
    // 250 comments by the user: the second page (the page's example sends a pageToken) has a next one too.
    setup: async (ctx) => {
      await thread(ctx, 'many', ORG, DOC, { commentData: Array.from({ length: 250 }, (_, i) => say(`comment ${i}`)) });
      const first = await ctx.call('/v1/users/data/get', { organizationId: ORG, userId: USER });
      ctx.replace(
        'yourPageToken',
        first.nextPageToken,
        'the page\'s "yourPageToken" cannot be real: the first page\'s token is sent',
      );
    },
  },
  '/v1/users/data/delete/status': {
    setup: async (ctx) => {
      const job = await ctx.call('/v1/users/data/delete', { userIds: [USER] });
      ctx.replace(
        'yourJobId',
        job.data.jobId,
        'the page\'s "yourJobId" cannot be real: the job of a users/data/delete is asked for',
      );
    },
  },
  '/v1/livestate/broadcast': { expect: () => ({ note: 'sent as printed: without the {"data": ...} envelope' }) },
  '/v1/organizations/documents/locations/data/delete': {
    setup: async (ctx) =>
      thread(ctx, 'at-scene', null, 'YOUR_DOCUMENT_ID', { location: { id: 'scene_1', locationName: 'White scene' } }),
  },
  '/v1/organizations/documents/locations/update': {
    setup: async (ctx) =>
      thread(ctx, 'at-scene', null, 'YOUR_DOCUMENT_ID', { location: { id: 'scene_1', locationName: 'Untitled scene' } }),
  },
  '/v1/notifications/add': {},
  '/v1/notifications/delete': {
    setup: async (ctx) => ctx.call('/v1/notifications/add', notification()),
    expect: () => ({
      keyMap: { '8955243231506071': 'yourNotificationId' },
      note: 'the page keys its answer 8955243231506071, standing for the id the request names',
    }),
  },
  '/v1/notifications/config/get': {
    setup: async (ctx) =>
      ctx.call('/v1/notifications/config/set', {
        organizationId: 'org1',
        documentIds: ['doc1'],
        userIds: ['USER_ID1'],
        config: { inbox: 'ALL', email: 'ALL' },
      }),
  },
  '/v1/notifications/get': {
    setup: async (ctx) => ctx.call('/v1/notifications/add', notification()),
    expect: () => ({ maps: ['notifyUsers', 'notifyUsersByUserId'] }),
  },
  '/v1/notifications/config/set': { expect: () => ({ exact: true }) },
  '/v1/notifications/update': {
    setup: async (ctx) => ctx.call('/v1/notifications/add', notification()),
    expect: () => ({
      keyMap: { '5471488637912692': 'yourNotificationId' },
      note: 'the page keys its answer 5471488637912692, standing for the id the request names',
    }),
  },
  '/v1/organizations/add': {},
  '/v1/organizations/delete': {
    setup: async (ctx) => ctx.call('/v1/organizations/add', { organizations: [{ organizationId: 'yourOrganizationId1' }] }),
  },
  '/v1/organizations/get': {
    setup: async (ctx) =>
      ctx.call('/v1/organizations/add', { organizations: [{ organizationId: ORG, organizationName: 'Your Organization Name' }] }),
  },
  '/v1/organizations/access/disablestate/update': {
    setup: async (ctx) => ctx.call('/v1/organizations/add', { organizations: [{ organizationId: 'yourOrganizationId1' }] }),
  },
  '/v1/organizations/update': {
    setup: async (ctx) => ctx.call('/v1/organizations/add', { organizations: [{ organizationId: ORG }] }),
  },
  '/v1/organizations/usergroups/add': {
    expect: () => ({
      keyMap: { yourGroupId: 'engineering' },
      note: 'the request adds the group "engineering", which the page\'s answer keys yourGroupId',
    }),
  },
  '/v1/organizations/usergroups/users/add': {
    setup: async (ctx) => {
      await ctx.call('/v1/users/add', { organizationId: ORG, users: users('yourUserId1') });
      await ctx.call('/v1/organizations/usergroups/add', {
        organizationId: ORG,
        organizationUserGroups: [{ groupId: 'yourGroupId' }],
      });
    },
  },
  '/v1/organizations/usergroups/users/delete': {
    setup: async (ctx) => {
      await ctx.call('/v1/users/add', { organizationId: ORG, users: users('yourUserId1') });
      await ctx.call('/v1/organizations/usergroups/add', {
        organizationId: ORG,
        organizationUserGroups: [{ groupId: 'yourGroupId' }],
      });
      await ctx.call('/v1/organizations/usergroups/users/add', {
        organizationId: ORG,
        organizationUserGroupId: 'yourGroupId',
        userIds: ['yourUserId1'],
      });
    },
  },
  '/v1/users/add': {
    setup: async (ctx) => folder(ctx, 'yourFolderId'),
  },
  '/v1/users/delete': { setup: async (ctx) => addMembers(ctx) },
  '/v1/users/get': {
    setup: async (ctx) => {
      await addMembers(ctx);
      await ctx.call('/v1/organizations/usergroups/add', {
        organizationId: ORG,
        organizationUserGroups: [{ groupId: 'yourOrganizationUserGroupId' }],
      });
      await ctx.call('/v1/organizations/usergroups/users/add', {
        organizationId: ORG,
        organizationUserGroupId: 'yourOrganizationUserGroupId',
        userIds: ['yourUserId1'],
      });
    },
  },
  '/v1/users/update': { setup: async (ctx) => addMembers(ctx) },
  '/v1/workspace/domains/add': { expect: () => ({ exact: true }) },
  '/v1/workspace/domains/delete': {
    setup: async (ctx) =>
      ctx.call('/v1/workspace/domains/add', { domains: ['https://www.google.com', 'https://*.firebase.com'] }),
    expect: () => ({ exact: true }),
  },
};

/** Folders of the organization, at the top. */
const folder = (ctx: Context, ...folderIds: string[]) =>
  ctx.call('/v1/organizations/folders/add', { organizationId: ORG, folders: folderIds.map((folderId) => ({ folderId })) });

/** yourUserId1 in the organization, its document and its folder. */
async function addMembers(ctx: Context): Promise<void> {
  await folder(ctx, 'yourFolderId');
  await ctx.call('/v1/users/add', { organizationId: ORG, users: users('yourUserId1') });
  await ctx.call('/v1/users/add', { organizationId: ORG, documentId: DOC, users: users('yourUserId1') });
  await ctx.call('/v1/users/add', { organizationId: ORG, folderId: 'yourFolderId', users: users('yourUserId1') });
}

interface Row {
  page: string;
  examples: number;
  asPrinted: number;
  notes: Set<string>;
  failures: string[];
}

/**
 * The v2 pages with a declaration of their own (auth/generate_token), and the pages of the original
 * service's other products, whose documented answer here is 501 UNIMPLEMENTED naming their path
 * (docs/api.md, "Not available on a self-hosted server"): a list apart from the twins', with its own plans.
 */
const V2_OWN: Record<string, Plan> = {
  '/v2/auth/generate_token': {},
  ...Object.fromEntries(
    UNAVAILABLE_PATHS.map((path): [string, Plan] => [
      path,
      { expect: () => ({ unavailable: path, note: "another product's page: 501 UNIMPLEMENTED (docs/api.md)" }) },
    ]),
  ),
};
const PAGES_V2_OWN = vendorPages(EXAMPLES_V2)?.filter((p) => Object.hasOwn(V2_OWN, p.endpoint)) ?? null;

/**
 * The /v2 pages served so far (docs/api.md, "Version 2"), from the operations' contracts: each is its v1
 * twin under the same name, answered by the same operation, so its examples need what its v1 page's do.
 */
const V2_TWINS = new Set(
  Object.values(CONTRACT).flatMap((c): string[] => {
    const paths = c.paths as Partial<Record<'v1' | 'v2', string>>;
    return paths.v2 !== undefined && paths.v2 === paths.v1 ? [paths.v2] : [];
  }),
);

const PAGES_V2 = vendorPages(EXAMPLES_V2)?.filter((p) => V2_TWINS.has(p.endpoint.replace(/^\/v2\//, ''))) ?? null;

/** Each version's pages, each page's plan (a v2 twin's is its v1 page's), and how many examples they hold. */
const VERSIONS = [
  { version: 'v2 (own and not available)', pages: PAGES_V2_OWN, plan: (endpoint: string) => V2_OWN[endpoint], total: 104 },
  { version: 'v1', pages: PAGES, plan: (endpoint: string) => SETUPS[endpoint], total: 109 },
  { version: 'v2', pages: PAGES_V2, plan: (endpoint: string) => SETUPS[endpoint.replace(/^\/v2\//, '/v1/')], total: 34 },
] as const;

for (const { version, pages, plan: planOf, total: expected } of VERSIONS)
  for (const kind of STORE_KINDS)
    test(`every example of the original service's ${version} pages served is answered as its page shows, on ${kind}`, {
      skip,
    }, async (t) => {
      const db = freshDatabase(kind);
      const store = await db.open();
      const server = await startServer({
        env: {
          ...db.env,
          MARGINALIA_RATE_LIMIT: '0',
          MARGINALIA_API_KEY_HEADERS: API_KEY_HEADER,
          MARGINALIA_AUTH_TOKEN_HEADERS: AUTH_TOKEN_HEADER,
        },
      });
      const rows: Row[] = [];
      try {
        for (const page of pages!) {
          const plan = planOf(page.endpoint);
          assert.ok(plan, `no plan for ${page.endpoint} (${page.file})`);
          const row: Row = { page: page.endpoint, examples: 0, asPrinted: 0, notes: new Set(), failures: [] };
          rows.push(row);
          for (const [i, example] of page.requests.entries()) {
            row.examples++;
            const creds = await createTenant(store, systemClock, `replay ${page.endpoint} ${i}`);
            const replace: Record<string, string> = { YOUR_API_KEY: creds.apiKey, YOUR_AUTH_TOKEN: creds.authToken };
            const ctx: Context = {
              call: async (path, data) => {
                const r = await post(server.url, path, { data }, creds);
                assert.ok(r.status < 300, `setup ${path} for ${page.endpoint} #${i + 1}: ${r.status} ${r.text.slice(0, 400)}`);
                return r.json.result ?? r.json;
              },
              replace: (placeholder, value, why) => {
                replace[placeholder] = value;
                row.notes.add(why);
              },
            };
            await plan.setup?.(ctx, example, i);
            const body = substituted(example.body, replace);
            // The pages that print the credentials in data send no headers: the example is answered from them.
            const inData = JSON.stringify(example.body).includes('YOUR_AUTH_TOKEN');
            const answer = await post(server.url, page.endpoint, body, inData ? null : creds);
            const x = plan.expect?.(example, i) ?? {};
            const documented =
              x.answer !== undefined ? page.responses[x.answer]! : page.responses.find((r) => r.kind === 'success')!;
            const outcome = compareAnswer(body, documented, answer, x);
            for (const k of outcome.kept) row.notes.add(`${k}: integer ms, kept (the pages print ISO text)`);
            if (x.note) row.notes.add(x.note);
            if (inData) row.notes.add('credentials in data, no headers, as printed');
            if (outcome.differences.length === 0) row.asPrinted++;
            else row.failures.push(`#${i + 1} ${example.name}: ${outcome.differences.join('; ')}`);
          }
        }
      } finally {
        await stopServer(server);
        await store.close();
        await db.drop();
      }
      const total = rows.reduce((n, r) => n + r.examples, 0);
      const printed = rows.reduce((n, r) => n + r.asPrinted, 0);
      t.diagnostic(`${kind}: ${printed} of ${total} examples of ${rows.length} ${version} pages answered as their pages show`);
      for (const r of rows)
        t.diagnostic(`| ${r.page} | ${r.asPrinted}/${r.examples} |${r.notes.size ? ` ${[...r.notes].join('; ')}` : ''}`);
      const failures = rows.flatMap((r) => r.failures.map((f) => `${r.page} ${f}`));
      assert.deepEqual(failures, [], failures.join('\n'));
      assert.equal(total, expected, `the ${expected} examples of the ${version} pages served`);
    });

/** The example's request, with the vendor's header names (none for the pages that print credentials in data). */
function post(url: string, path: string, body: unknown, creds: IssuedCredentials | null) {
  const headers: Record<string, string> = creds ? { [API_KEY_HEADER]: creds.apiKey, [AUTH_TOKEN_HEADER]: creds.authToken } : {};
  return postBody(url, path, body, headers);
}
