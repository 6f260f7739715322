// v2's end-user token (docs/api.md, "POST /v2/auth/generate_token"), against the real server on each database:
// auth/generate_token and its other name, /v2/auth/token/get, answer as the original service's page documents;
// the token verifies with its resources and roles, and opens GET /v1/events (as a Bearer header and as
// ?token=) with the same share as v1's token of that user and organization; bad input is 400
// INVALID_ARGUMENT in the envelope, naming the member; credentials come from the headers only, and v1's
// auth/token/get is as it was.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJwt } from 'jose';
import { MAX_END_USER_TOKEN_LENGTH, MAX_TOKEN_RESOURCES } from '../../src/schemas/auth.js';
import type { Services } from '../../src/services/context.js';
import { verifyEndUserToken } from '../../src/services/end-user-tokens.js';
import { openStream, type SseStream } from '../helpers/sse.js';
import { post, postBody, startServer, stopServer } from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

const creds = { apiKey: 'v2-token-key-3c9a', authToken: 'v2-token-token-1f2e3d4c5b6a' };
const ORG = 'org_123';

/** The page's first example: viewer on the organization, editor on a document until 2022 (kept as sent). */
const PAGE_EXAMPLE = {
  userId: 'user123',
  userProperties: { isAdmin: false, name: 'John Doe', email: 'john@example.com' },
  permissions: {
    resources: [
      { type: 'organization', id: ORG, accessRole: 'viewer' },
      { type: 'document', id: 'doc_456', organizationId: ORG, accessRole: 'editor', expiresAt: 1640995200 },
    ],
  },
};
const withResources = (resources: unknown[]) => ({ ...PAGE_EXAMPLE, permissions: { resources } });
const org = (id: string) => ({ type: 'organization', id });

const parsed = (m: { data: string }) => JSON.parse(m.data) as { type: string; data: { id: string } };

for (const kind of STORE_KINDS)
  test(`v2's generate_token answers as its page documents and its token opens the event stream, on ${kind}`, async (t) => {
    const db = freshDatabase(kind);
    const server = await startServer({
      env: { ...db.env, MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken, MARGINALIA_RATE_LIMIT: '0' },
    });
    const store = await db.open();
    const services = { store, clock: () => Date.now() } as unknown as Services;
    const streams: SseStream[] = [];
    try {
      await t.test('both paths answer the documented envelope, and the token carries the resources', async () => {
        for (const path of ['/v2/auth/generate_token', '/v2/auth/token/get']) {
          const r = await post(server.url, path, creds, PAGE_EXAMPLE);
          assert.equal(r.status, 200, `${path}: ${r.text}`);
          assert.deepEqual(Object.keys(r.json), ['result'], path);
          assert.deepEqual(
            { ...r.json.result, data: Object.keys(r.json.result.data) },
            { status: 'success', message: 'Token generated successfully.', data: ['token'] },
            path,
          );
          const claims = decodeJwt(r.json.result.data.token);
          assert.deepEqual(
            [claims.sub, claims.org, claims.name, claims.email, claims.isAdmin],
            ['user123', ORG, 'John Doe', 'john@example.com', false],
          );
          assert.deepEqual(claims.res, PAGE_EXAMPLE.permissions.resources, `${path}: every resource, with its role`);
          assert.equal((claims.exp as number) - (claims.iat as number), 48 * 3600, 'valid 48 hours, as v1');
          const verified = await verifyEndUserToken(services, r.json.result.data.token);
          assert.deepEqual([verified.userId, verified.organizationId], ['user123', ORG]);
          assert.deepEqual(verified.resources, PAGE_EXAMPLE.permissions.resources);
        }
      });

      await t.test('the role defaults to editor, and a folder or document names its organization', async () => {
        const r = await post(server.url, '/v2/auth/generate_token', creds, {
          ...withResources([{ type: 'folder', id: 'folder_001', organizationId: 'org_9', accessRole: null }, org(ORG)]),
          userProperties: { name: 'Bob', email: 'bob@example.com' },
        });
        assert.equal(r.status, 200, r.text);
        const claims = decodeJwt(r.json.result.data.token);
        assert.equal(claims.org, 'org_9', "the first resource's organization is the token's");
        assert.equal(claims.isAdmin, undefined, 'isAdmin only when given');
        assert.deepEqual(claims.res, [
          { type: 'folder', id: 'folder_001', organizationId: 'org_9', accessRole: 'editor' },
          { type: 'organization', id: ORG, accessRole: 'editor' },
        ]);
      });

      await t.test("the token opens GET /v1/events with the share of v1's token of that user and organization", async () => {
        const v2 = (await post(server.url, '/v2/auth/generate_token', creds, PAGE_EXAMPLE)).json.result.data.token;
        const v1 = (
          await post(server.url, '/v1/auth/token/get', creds, { userId: 'user123', userProperties: { organizationId: ORG } })
        ).json.result.data.token;
        for (const [query, headers] of [
          ['', { authorization: `Bearer ${v2}` }],
          [`?token=${v2}`, {}],
          ['', { authorization: `Bearer ${v1}` }],
        ] as const) {
          const s = await openStream(`${server.url}/v1/events${query}`, headers);
          streams.push(s);
          assert.equal(s.status, 200, s.body);
          await s.comment(1);
        }
        const notify = (organizationId: string, notificationId: string, userId: string) =>
          post(server.url, '/v1/notifications/add', creds, {
            organizationId,
            notificationId,
            actionUser: { userId: 'boss' },
            displayHeadlineMessageTemplate: 'Hello',
            notifyUsers: [{ userId }],
          });
        for (const [o, id, user] of [
          [ORG, 'theirs', 'user123'],
          [ORG, 'someone-elses', 'someone'],
          ['org_other', 'other-org', 'user123'],
          [ORG, 'end', 'user123'],
        ] as const)
          assert.equal((await notify(o, id, user)).status, 200);
        for (const s of streams) {
          const ids = (await s.until((m) => parsed(m).data.id === 'end', 10_000)).map((m) => parsed(m).data.id);
          assert.deepEqual(ids, ['theirs', 'end'], 'its own notifications in its organization, nothing else');
        }
      });

      await t.test('bad input: 400 INVALID_ARGUMENT in the envelope, naming the member', async () => {
        const long = (i: number) => org(`${'o'.repeat(250)}-${i}`);
        const cases: [string, unknown, RegExp][] = [
          [
            'a resource type that is none',
            withResources([{ type: 'workspace', id: 'w' }]),
            /resources\[0\]\.type must be one of/,
          ],
          [
            'too many resources',
            withResources(Array.from({ length: MAX_TOKEN_RESOURCES + 1 }, (_, i) => org(`o${i}`))),
            new RegExp(`resources must have at most ${MAX_TOKEN_RESOURCES} entries`),
          ],
          [
            'a token longer than the stream takes',
            withResources(Array.from({ length: 40 }, (_, i) => long(i))),
            new RegExp(`more than the ${MAX_END_USER_TOKEN_LENGTH}`),
          ],
          ['no resources', withResources([]), /resources must have at least 1 entry/],
          ['a document without its organization', withResources([{ type: 'document', id: 'd' }]), /organizationId is required/],
          [
            'a role that is none',
            withResources([{ ...org(ORG), accessRole: 'owner' }]),
            /accessRole must be one of viewer, editor/,
          ],
          ['an expiry that is no integer', withResources([{ ...org(ORG), expiresAt: '2026' }]), /expiresAt must be an integer/],
          ['no permissions', { userId: 'u', userProperties: { name: 'n', email: 'e' } }, /data\.permissions is required/],
          ['no name', { ...PAGE_EXAMPLE, userProperties: { email: 'e' } }, /data\.userProperties\.name is required/],
          ['no userId', { ...PAGE_EXAMPLE, userId: undefined }, /data\.userId is required/],
        ];
        for (const [what, data, message] of cases) {
          const r = await post(server.url, '/v2/auth/generate_token', creds, data);
          assert.equal(r.status, 400, `${what}: ${r.text}`);
          assert.deepEqual(Object.keys(r.json), ['error'], what);
          assert.equal(r.json.error.status, 'INVALID_ARGUMENT', what);
          assert.match(r.json.error.message, message, what);
        }
      });

      await t.test("credentials from the headers only; v1's auth/token/get still takes them in data", async () => {
        for (const path of ['/v2/auth/generate_token', '/v2/auth/token/get']) {
          const none = await postBody(server.url, path, { data: { ...PAGE_EXAMPLE, ...creds } }, {});
          assert.equal(none.status, 401, `${path}: ${none.text}`);
          assert.equal(none.json.error.status, 'UNAUTHENTICATED');
          const wrong = await post(server.url, path, { ...creds, authToken: 'wrong-token' }, PAGE_EXAMPLE);
          assert.equal(wrong.status, 401, `${path}: ${wrong.text}`);
        }
        const v1 = await postBody(
          server.url,
          '/v1/auth/token/get',
          { data: { userId: 'u', userProperties: { organizationId: ORG }, ...creds } },
          {},
        );
        assert.equal(v1.status, 200, v1.text);
        assert.equal(decodeJwt(v1.json.result.data.token).res, undefined, "v1's token names no resources");
      });
    } finally {
      for (const s of streams) s.close();
      await stopServer(server);
      await store.close();
      await db.drop();
    }
  });
