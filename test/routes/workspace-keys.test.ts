// Workspace keys and tokens on the configured database: the API-key pages the workspace's credentials call
// (apikey/create|update, apikeys/get, authtokens/get, authtoken/reset) and a key's own pages (domains/get,
// apikeyconfig/get|update). Happy paths as the pages show them, errors with the pages' messages, and
// security: the workspace's credentials refused on tenant pages and a tenant's on workspace pages, a
// rotated workspace token refused at once, tokens never answered whole but once, and keys kept apart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { issueWorkspaceCredentials, type IssuedWorkspaceCredentials } from '../../src/services/workspace-credentials.js';
import { expectError, makeTestApp, PATHS, type Reply, type TestApp } from '../helpers/app.js';

let t: TestApp;
let ws: IssuedWorkspaceCredentials;
before(async () => {
  t = await makeTestApp({ authFailureFloorMs: 0 });
  ws = await issueWorkspaceCredentials(t.store, () => Date.now());
});
after(async () => t.close());

const wsHeaders = (c: { workspaceId: string; workspaceAuthToken: string } = ws) => ({
  'x-service-workspace-id': c.workspaceId,
  'x-service-workspace-auth-token': c.workspaceAuthToken,
});
/** POST {data} to a workspace page with the workspace's credentials. */
const wsPost = (path: string, data: unknown, headers: Record<string, string> = wsHeaders()): Promise<Reply> =>
  t.request(path, { body: { data }, headers });
const wsOk = async (path: string, data: unknown) => {
  const r = await wsPost(path, data);
  assert.equal(r.status, 200, `${path}: ${r.body}`);
  return r.json.result;
};
/** POST {data} with an API key's own credentials. */
const keyPost = (path: string, creds: { apiKey: string; authToken: string }, data: unknown): Promise<Reply> =>
  t.request(path, { body: { data }, headers: { 'x-service-api-key': creds.apiKey, 'x-service-auth-token': creds.authToken } });

async function newKey(extra: Record<string, unknown> = {}): Promise<{ apiKey: string; authToken: string }> {
  const r = await wsOk(PATHS.apiKeyCreate, { ownerEmail: 'owner@example.com', type: 'testing', createAuthToken: true, ...extra });
  return r.data;
}

const WORKSPACE_PAGES = ['apiKeyCreate', 'apiKeyUpdate', 'apiKeysGet', 'authTokensGet', 'authTokenReset'] as const;
const KEY_PAGES = ['allowedDomainsGet', 'apiKeyConfigGet', 'apiKeyConfigUpdate'] as const;

describe('workspace keys: happy paths', () => {
  test('apikey/create makes a tenant whose token (shown once) calls the tenant pages; the name defaults by type', async () => {
    const r = await wsPost(PATHS.apiKeyCreate, { ownerEmail: 'owner@example.com', type: 'testing', createAuthToken: true });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.result.message, 'API key created successfully.');
    const { apiKey, authToken } = r.json.result.data;
    assert.match(apiKey, /^mk_/);
    assert.match(authToken, /^mt_/);
    const found = (await t.store.findCredentials(apiKey))!;
    assert.equal(found.tenant.name, 'Testing Key');
    const users = await keyPost(PATHS.usersAdd, { apiKey, authToken }, { organizationId: 'o', users: [{ userId: 'u' }] });
    assert.equal(users.status, 200, users.body);
  });

  test('apikey/create without createAuthToken answers the key alone; authtoken/reset then gives it a token', async () => {
    const created = await wsOk(PATHS.apiKeyCreate, { ownerEmail: 'o@example.com', type: 'production', apiKeyName: 'Prod' });
    assert.deepEqual(Object.keys(created.data), ['apiKey']);
    const tokens = await wsOk(PATHS.authTokensGet, { apiKey: created.data.apiKey });
    assert.deepEqual(tokens.data, { apiKey: created.data.apiKey, authTokens: [] });
    const reset = await wsOk(PATHS.authTokenReset, { apiKey: created.data.apiKey });
    const token = reset.data.newAuthToken.token;
    const ok = await keyPost(PATHS.apiKeyConfigGet, { apiKey: created.data.apiKey, authToken: token }, {});
    assert.equal(ok.status, 200, ok.body);
  });

  test('apikey/create takes allowed domains (normalized, localhost added on request) that domains/get shows', async () => {
    const key = await newKey({ allowedDomains: ['https://www.example.com/x', '127.0.0.1'], addLocalHostToAllowedDomains: true });
    const r = await keyPost(PATHS.allowedDomainsGet, key, {});
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json, {
      result: {
        status: 'success',
        message: 'Allowed domains retrieved successfully.',
        data: { allowedDomains: ['127.0.0.1', 'example.com', 'localhost'] },
      },
    });
  });

  test('apikey/update renames; apikeys/get lists in API key order, paged with nextPageToken, and filters by apiKeys', async () => {
    const made = [await newKey(), await newKey(), await newKey()];
    const up = await wsPost(PATHS.apiKeyUpdate, { apiKey: made[0]!.apiKey, apiKeyName: 'Renamed' });
    assert.deepEqual(up.json, { result: { status: 'success', message: 'API key updated successfully.', data: null } });
    const all: any[] = [];
    let pageToken: string | undefined;
    do {
      const page = await wsOk(PATHS.apiKeysGet, { pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      assert.equal(page.message, 'API keys retrieved successfully.');
      assert.ok(page.data.length <= 2);
      all.push(...page.data);
      pageToken = page.nextPageToken;
    } while (pageToken);
    const ids = all.map((k) => k.id);
    assert.deepEqual(ids, [...ids].sort(), 'in API key order');
    for (const m of made) assert.ok(ids.includes(m.apiKey), 'every key listed');
    assert.ok(ids.includes(t.a.creds.apiKey), "the CLI's keys too");
    const only = await wsOk(PATHS.apiKeysGet, { apiKeys: [made[0]!.apiKey, 'mk_none'] });
    assert.equal(only.data.length, 1);
    const item = only.data[0];
    assert.equal(item.apiKeyName, 'Renamed');
    assert.equal(item.type, 'testing');
    assert.equal(item.ownerEmail, 'owner@example.com');
    assert.equal(item.revoked, false);
    assert.equal(only.nextPageToken, undefined);
  });

  test('authtokens/get shows active tokens by their first characters only; reset revokes them and shows the new one once', async () => {
    const key = await newKey();
    const listed = await wsOk(PATHS.authTokensGet, { apiKey: key.apiKey });
    assert.equal(listed.message, 'Auth tokens retrieved successfully.');
    const [shown] = listed.data.authTokens;
    assert.equal(listed.data.authTokens.length, 1);
    assert.ok(key.authToken.startsWith(shown.token) && shown.token.length < key.authToken.length / 2, shown.token);
    assert.equal(shown.name, 'Default Auth Token');
    assert.deepEqual(shown.domains, []);
    const reset = await wsOk(PATHS.authTokenReset, { apiKey: key.apiKey });
    assert.equal(reset.message, 'Auth token reset successfully.');
    const fresh = reset.data.newAuthToken;
    assert.equal(reset.data.apiKey, key.apiKey);
    assert.match(fresh.token, /^mt_/);
    expectError(await keyPost(PATHS.apiKeyConfigGet, key, {}), 401, 'UNAUTHENTICATED', 'the old token');
    assert.equal((await keyPost(PATHS.apiKeyConfigGet, { apiKey: key.apiKey, authToken: fresh.token }, {})).status, 200);
    const after = await wsOk(PATHS.authTokensGet, { apiKey: key.apiKey });
    assert.equal(after.data.authTokens.length, 1);
    assert.ok(fresh.token.startsWith(after.data.authTokens[0].token));
  });

  test('apikeyconfig/get shows the defaults and what create stored, secrets masked', async () => {
    const key = await newKey({
      requireAutoOrgUser: true,
      persistenceDBRegion: 'eur3',
      emailServiceConfig: { type: 'sendgrid', apiKey: 'SG.abcdefghijklmnopqrstuvwxyz', fromEmail: 'a@b.co' },
    });
    const r = await keyPost(PATHS.apiKeyConfigGet, key, {});
    assert.equal(r.status, 200, r.body);
    const data = r.json.result.data;
    assert.equal(r.json.result.message, 'API key metadata retrieved successfully.');
    assert.equal(data.ownerEmail, 'owner@example.com');
    assert.deepEqual(data.planInfo, { type: 'self-hosted' });
    assert.equal(data.defaultDocumentAccessType, 'organizationPrivate');
    assert.equal(data.isPrivateCommentsEnabled, false);
    assert.equal(data.requireJwtToken, false);
    assert.equal(data.requireAutoOrgUser, true);
    assert.equal(data.persistenceDBRegion, 'eur3');
    assert.equal(data.emailServiceConfig.fromEmail, 'a@b.co');
    assert.ok(!r.body.includes('abcdefghijklmnop'), `the email provider's key is never answered: ${r.body}`);
    assert.equal(data.aiModelsConfig, undefined);
  });

  test("apikeyconfig/update: the page's example, AI keys masked and merged by provider, the others kept", async () => {
    const key = await newKey();
    const r = await keyPost(PATHS.apiKeyConfigUpdate, key, {
      requireJwtToken: true,
      defaultDocumentAccessType: 'restricted',
      aiModelApiKey: [
        { provider: 'openai', customerApiKey: 'sk-openai-0123456789abcdef' },
        { provider: 'anthropic', customerApiKey: 'sk-ant-0123456789abcdef' },
      ],
    });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json.result.message, 'API key configuration updated successfully.');
    const data = r.json.result.data;
    assert.deepEqual(Object.keys(data).sort(), ['aiModelsConfig', 'defaultDocumentAccessType', 'requireJwtToken']);
    assert.equal(data.requireJwtToken, true);
    assert.equal(data.defaultDocumentAccessType, 'restricted');
    assert.deepEqual(Object.keys(data.aiModelsConfig).sort(), ['anthropic', 'openai']);
    assert.ok(data.aiModelsConfig.openai.displayText.startsWith('sk-'));
    assert.ok(!r.body.includes('0123456789'), r.body);
    await keyPost(PATHS.apiKeyConfigUpdate, key, {
      aiModelApiKey: [{ provider: 'gemini', customerApiKey: 'AIza-0123456789xyz' }],
    });
    const got = (await keyPost(PATHS.apiKeyConfigGet, key, {})).json.result.data;
    assert.deepEqual(Object.keys(got.aiModelsConfig).sort(), ['anthropic', 'gemini', 'openai']);
    assert.equal(got.requireJwtToken, true, 'kept');
    assert.equal(got.defaultDocumentAccessType, 'restricted');
    const settings = JSON.stringify(await t.db.query('SELECT shown FROM api_key_settings'));
    assert.ok(!settings.includes('0123456789'), `no AI key is stored whole: ${settings}`);
  });

  test('defaultDocumentAccessType takes effect: a new document of the key has that access, an existing one keeps its own', async () => {
    const key = await newKey();
    const add = (documentId: string) =>
      keyPost(PATHS.documentsAdd, key, { organizationId: 'org', documents: [{ documentId, documentName: documentId }] });
    assert.equal((await add('before')).status, 200);
    await keyPost(PATHS.apiKeyConfigUpdate, key, { defaultDocumentAccessType: 'public' });
    assert.equal((await add('after')).status, 200);
    const users = { organizationId: 'org', documentId: 'made-by-write', users: [{ userId: 'u' }] };
    assert.equal((await keyPost(PATHS.usersAdd, key, users)).status, 200);
    const r = await keyPost(PATHS.documentsGet, key, { organizationId: 'org' });
    const access = Object.fromEntries(r.json.result.data.map((d: any) => [d.id, d.accessType]));
    assert.deepEqual(access, { after: 'public', before: 'organizationPrivate', 'made-by-write': 'public' }, r.body);
  });

  test("the workspace's key changes are the tenant's activities (operator actions), naming the key and never a token", async () => {
    const key = await newKey();
    const on = await keyPost(PATHS.activityConfigUpdate, key, { activityServiceConfig: { isEnabled: true } });
    assert.equal(on.status, 200, on.body);
    await wsOk(PATHS.apiKeyUpdate, { apiKey: key.apiKey, apiKeyName: 'Renamed' });
    const reset = await wsOk(PATHS.authTokenReset, { apiKey: key.apiKey });
    const token = reset.data.newAuthToken.token as string;
    const log = await keyPost(PATHS.activitiesGet, { apiKey: key.apiKey, authToken: token }, {});
    assert.equal(log.status, 200, log.body);
    const operator = log.json.result.data.filter((a: { actionUser: { userId: string } }) => a.actionUser.userId === '@operator');
    assert.deepEqual(
      operator.map((a: { actionType: string; targetEntityId: string }) => [a.actionType, a.targetEntityId]).sort(),
      [
        ['operator.key_rename', key.apiKey],
        ['operator.token_reset', key.apiKey],
      ],
    );
    assert.ok(!log.body.includes(token) && !log.body.includes(key.authToken), 'no token in the log');
  });
});

describe('workspace keys: errors', () => {
  test('unknown keys are NOT_FOUND "API key not found." on update, authtokens/get and reset', async () => {
    for (const [path, data] of [
      [PATHS.apiKeyUpdate, { apiKey: 'mk_none', apiKeyName: 'x' }],
      [PATHS.authTokensGet, { apiKey: 'mk_none' }],
      [PATHS.authTokenReset, { apiKey: 'mk_none' }],
    ] as const) {
      assert.equal(expectError(await wsPost(path, data), 404, 'NOT_FOUND', path), 'API key not found.');
    }
  });

  test('create refuses a missing or malformed owner, an unknown type, a bad region or domain, writing nothing', async () => {
    const before = (await t.store.listTenants()).length;
    for (const data of [
      { type: 'testing' },
      { ownerEmail: 'nobody', type: 'testing' },
      { ownerEmail: 'o@example.com', type: 'staging' },
      { ownerEmail: 'o@example.com', type: 'production', persistenceDBRegion: '' },
      { ownerEmail: 'o@example.com', type: 'testing', allowedDomains: ['exa mple.com'] },
    ]) {
      const message = expectError(await wsPost(PATHS.apiKeyCreate, data), 400, 'INVALID_ARGUMENT', JSON.stringify(data));
      assert.ok(message.length > 0);
    }
    const message = expectError(
      await wsPost(PATHS.apiKeyCreate, { ownerEmail: 'nobody', type: 'testing' }),
      400,
      'INVALID_ARGUMENT',
    );
    assert.match(message, /ownerEmail/);
    assert.equal((await t.store.listTenants()).length, before, 'no tenant made');
  });

  test("apikeyconfig/update with no member, only nulls or an unknown member: the page's message, nothing changed", async () => {
    const key = await newKey();
    for (const data of [{}, { requireJwtToken: null }, { requireJwtToken: true, other: 1 }]) {
      const r = await keyPost(PATHS.apiKeyConfigUpdate, key, data);
      assert.equal(expectError(r, 400, 'INVALID_ARGUMENT'), 'At least one field must be provided for update');
    }
    assert.equal((await keyPost(PATHS.apiKeyConfigGet, key, {})).json.result.data.requireJwtToken, false);
  });

  test('apikeys/get refuses a malformed page token and one issued for other filters', async () => {
    await newKey();
    await newKey();
    expectError(await wsPost(PATHS.apiKeysGet, { pageToken: 'garbage!' }), 400, 'INVALID_ARGUMENT');
    const page = await wsOk(PATHS.apiKeysGet, { pageSize: 1 });
    expectError(await wsPost(PATHS.apiKeysGet, { pageToken: page.nextPageToken, apiKeys: ['x'] }), 400, 'INVALID_ARGUMENT');
  });
});

describe('workspace keys: security', () => {
  test("a tenant's credentials are refused on every workspace page (401), the workspace's on every key page", async () => {
    for (const op of WORKSPACE_PAGES) {
      const r = await t.a.post(PATHS[op], { apiKey: t.a.creds.apiKey });
      assert.equal(expectError(r, 401, 'UNAUTHENTICATED', op), 'Missing header x-service-workspace-id.');
    }
    for (const op of KEY_PAGES) {
      const r = await wsPost(PATHS[op], { requireJwtToken: true });
      assert.equal(expectError(r, 401, 'UNAUTHENTICATED', op), 'Missing header x-service-api-key.');
    }
    // The workspace's id and token sent as a tenant's key and token are no tenant's.
    const asTenant = await keyPost(PATHS.usersAdd, { apiKey: ws.workspaceId, authToken: ws.workspaceAuthToken }, {});
    expectError(asTenant, 401, 'UNAUTHENTICATED');
    // And a tenant's key and token under the workspace headers are no workspace's.
    const asWorkspace = await wsPost(
      PATHS.apiKeysGet,
      {},
      wsHeaders({ workspaceId: t.a.creds.apiKey, workspaceAuthToken: t.a.creds.authToken }),
    );
    assert.equal(expectError(asWorkspace, 401, 'UNAUTHENTICATED'), 'Invalid workspace id or workspace auth token.');
  });

  test('a wrong workspace token or id is 401 with one message; a missing token names its header', async () => {
    const wrongToken = wsHeaders({ workspaceId: ws.workspaceId, workspaceAuthToken: `${ws.workspaceAuthToken}x` });
    const wrongId = wsHeaders({ workspaceId: 'mws_other', workspaceAuthToken: ws.workspaceAuthToken });
    const a = expectError(await wsPost(PATHS.apiKeysGet, {}, wrongToken), 401, 'UNAUTHENTICATED');
    const b = expectError(await wsPost(PATHS.apiKeysGet, {}, wrongId), 401, 'UNAUTHENTICATED');
    assert.equal(a, b);
    const missing = await wsPost(PATHS.apiKeysGet, {}, { 'x-service-workspace-id': ws.workspaceId });
    assert.equal(expectError(missing, 401, 'UNAUTHENTICATED'), 'Missing header x-service-workspace-auth-token.');
    // A 401 comes before the body is looked at.
    const garbage = await t.request(PATHS.apiKeyCreate, { raw: '{"data":', headers: { 'content-type': 'application/json' } });
    expectError(garbage, 401, 'UNAUTHENTICATED');
  });

  test('rotating the workspace token refuses the old one at once and keeps the id', async () => {
    const rotated = await issueWorkspaceCredentials(t.store, () => Date.now());
    assert.equal(rotated.workspaceId, ws.workspaceId);
    assert.equal(rotated.rotated, true);
    expectError(await wsPost(PATHS.apiKeysGet, {}), 401, 'UNAUTHENTICATED', 'the old token');
    ws = rotated;
    assert.equal((await wsPost(PATHS.apiKeysGet, {})).status, 200);
  });

  test('the workspace token is kept only as a hash', async () => {
    const rows = JSON.stringify(await t.db.query('SELECT * FROM workspace_credentials'));
    assert.ok(!rows.includes(ws.workspaceAuthToken), rows);
    assert.ok(rows.includes(ws.workspaceId));
  });

  test("a key's pages answer its own domains and configuration, never another key's", async () => {
    const one = await newKey({ allowedDomains: ['one.example.com'] });
    const two = await newKey({ allowedDomains: ['two.example.com'] });
    await keyPost(PATHS.apiKeyConfigUpdate, one, { requireJwtToken: true });
    assert.deepEqual((await keyPost(PATHS.allowedDomainsGet, two, {})).json.result.data.allowedDomains, ['two.example.com']);
    assert.equal((await keyPost(PATHS.apiKeyConfigGet, two, {})).json.result.data.requireJwtToken, false);
    // A revoked key's token no longer calls its pages, and the key takes no new token.
    await t.store.revokeTenant(one.apiKey, Date.now());
    expectError(await keyPost(PATHS.apiKeyConfigGet, one, {}), 401, 'UNAUTHENTICATED');
    expectError(await wsPost(PATHS.authTokenReset, { apiKey: one.apiKey }), 400, 'INVALID_ARGUMENT');
  });

  test('workspace requests have a rate-limit budget of their own', async () => {
    const limited = await makeTestApp({ rateLimit: 1 });
    try {
      const creds = await issueWorkspaceCredentials(limited.store, () => Date.now());
      const post = () => limited.request(PATHS.apiKeysGet, { body: { data: {} }, headers: wsHeaders(creds) });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await post()).status);
      assert.ok(statuses.includes(429), `the workspace is limited: ${statuses}`);
      const refused = await post();
      assert.match(expectError(refused, 429, 'RESOURCE_EXHAUSTED'), /workspace's credentials/);
      assert.equal((await limited.a.post(PATHS.webhooksGet, {})).status, 200, "a tenant's budget is its own");
    } finally {
      await limited.close();
    }
  });
});
