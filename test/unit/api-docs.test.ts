// The API's own description (docs/api.md, "API reference: /docs and /openapi.json"): /openapi.json is OpenAPI 3.1
// generated from the schemas that validate requests, with every operation, its error answers and the two credential
// headers as security schemes; the committed openapi.json is exactly what the service serves (run
// `npm run openapi` after changing a schema); /docs serves its page and assets from the server itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { UNAVAILABLE_PATHS } from '../../src/operations/unavailable.js';
import { MAX_TOKEN_RESOURCES } from '../../src/schemas/auth.js';
import { DEFAULT_LIMITS } from '../../src/schemas/common.js';
import { type Contract, namesOf } from '../../src/schemas/operations/contract.js';
import { CONTRACT } from '../../src/schemas/operations/index.js';
import { validatorOf } from '../helpers/answer-check.js';
import { makeTestApp, PATHS, type TestApp } from '../helpers/app.js';
import { parseBlocks } from '../helpers/doc-examples.js';
import { REPO } from '../helpers/server-process.js';

/** The one GET under /v1: the event stream (docs/events.md, "The live stream: GET /v1/events"). */
const STREAM = '/v1/events';
/** Attachments' routes (docs/api.md, "Attachments"): a file in, a file out, not JSON operations. */
const FILES = ['/v1/attachments/upload', '/v1/attachments/{attachmentId}'];

describe('/openapi.json and /docs', () => {
  let t: TestApp;
  let doc: any;

  before(async () => {
    t = await makeTestApp();
    const r = await t.request('/openapi.json', { method: 'GET' });
    assert.equal(r.status, 200);
    doc = r.json;
  });
  after(async () => {
    await t.close();
  });

  test('is OpenAPI 3.1 with both credential headers as security schemes, required together', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.components.securitySchemes, {
      apiKey: { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: "The tenant's API key" },
      authToken: { type: 'apiKey', in: 'header', name: 'x-service-auth-token', description: "One of the key's auth tokens" },
      // The workspace pages alone take these (below).
      workspaceId: {
        type: 'apiKey',
        in: 'header',
        name: 'x-service-workspace-id',
        description: "The workspace's id (`marginalia workspace credentials`): the workspace pages only",
      },
      workspaceAuthToken: {
        type: 'apiKey',
        in: 'header',
        name: 'x-service-workspace-auth-token',
        description: "The workspace's auth token: the workspace pages only",
      },
      // GET /v1/events alone takes it (below).
      endUserToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'An end-user token (POST /v1/auth/token/get): GET /v1/events (also as its `token` parameter) and the ' +
          'operations open to end users, for what its user may access (docs/api.md, "End users")',
      },
    });
    assert.deepEqual(doc.security, [{ apiKey: [], authToken: [] }]);
    // The workspace pages take the workspace's headers instead; a key's own pages the tenant's.
    for (const page of ['apikey/create', 'apikey/update', 'apikeys/get', 'authtokens/get', 'authtoken/reset'])
      assert.deepEqual(doc.paths[`/v2/workspace/${page}`].post.security, [{ workspaceId: [], workspaceAuthToken: [] }], page);
    assert.equal(doc.paths['/v2/workspace/apikeyconfig/get'].post.security, undefined);
    // The operations open to end users take a token too (docs/api.md, "End users"); the rest the headers alone.
    const either = [{ apiKey: [], authToken: [] }, { endUserToken: [] }];
    for (const path of ['/v1/notifications/get', '/v2/commentannotations/get', '/v1/commentannotations/comments/add'])
      assert.deepEqual(doc.paths[path].post.security, either, path);
    for (const path of ['/v1/users/add', '/v2/notifications/add', '/v1/notifications/config/get'])
      assert.equal(doc.paths[path].post.security, undefined, path);
  });

  test('describes every operation as a POST, with its request schema and every error answer in the envelope', () => {
    const operations = Object.values(PATHS).filter((p) => p.startsWith('/v1/'));
    assert.deepEqual(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/v1/') && p !== STREAM && !FILES.includes(p))
        .sort(),
      [...operations].sort(),
    );
    for (const path of operations) {
      assert.deepEqual(Object.keys(doc.paths[path]), ['post'], `${path}: only POST is an operation`);
      const op = doc.paths[path].post;
      assert.ok(op.summary, `${path} has a summary`);
      const body = op.requestBody.content['application/json'].schema;
      assert.deepEqual(body.required, ['data'], path);
      // Every operation names its organization at the top of data, but those that take several (docs/api.md,
      // "Organizations").
      const data = body.properties.data.properties;
      const organizationId =
        // Optional where it may be absent (documents without an organization): its first alternative.
        data.organizationId?.anyOf?.[0] ??
        data.organizationId ??
        data.organizations?.items.properties.organizationId ??
        data.organizationIds?.anyOf?.[0].items ??
        data.organizationIds?.items ??
        // auth/token/get names it among the user's properties (docs/api.md, "POST /v1/auth/token/get").
        data.userProperties?.properties.organizationId ??
        // users/data/delete/status names only its job (an id of the same limits).
        data.jobId;
      // Webhooks and the workspace's settings belong to the tenant, not to an organization:
      // their own members carry the limits.
      if (path.startsWith('/v1/webhooks/'))
        assert.ok(path === PATHS.webhooksGet || data.url?.maxLength || data.webhookId?.maxLength, path);
      else if (path.startsWith('/v1/workspace/')) assert.equal(data.domains?.items.maxLength, 2048, path);
      else assert.equal(organizationId?.maxLength, 256, `${path}: the validation limits are there`);
      // users/data/delete succeeds with 202, as the original service's page shows.
      const ok = path === PATHS.userDataDelete ? '202' : '200';
      for (const code of [ok, '400', '401', '403', '405', '413', '429', '500', '503'])
        assert.ok(op.responses[code], `${path} answers ${code}`);
      for (const [code, answer] of Object.entries<any>(op.responses)) {
        if (code === ok) continue;
        assert.deepEqual(
          answer.content['application/json'].schema,
          { $ref: '#/components/schemas/ErrorBody' },
          `${path} ${code}`,
        );
      }
      const success = op.responses[ok].content['application/json'].schema.properties;
      assert.deepEqual((success.result?.properties ?? success).status.enum, ['success'], path);
    }
    assert.ok(doc.paths[PATHS.commentsAdd].post.responses['404'], 'comments/add names its missing annotation');
    assert.ok(doc.paths[PATHS.notificationsAdd].post.responses['409'], 'notifications/add names a taken id');
    assert.deepEqual(
      doc.components.schemas.ErrorBody.properties.error.properties.status.anyOf.map((s: any) => s.enum[0]),
      [
        'INVALID_ARGUMENT',
        'UNAUTHENTICATED',
        'PERMISSION_DENIED',
        'NOT_FOUND',
        'ALREADY_EXISTS',
        'FAILED_PRECONDITION',
        'RESOURCE_EXHAUSTED',
        'INTERNAL',
        'UNIMPLEMENTED',
        'UNAVAILABLE',
      ],
    );
  });

  test('GET /v1/events is described: filters, both kinds of credentials, the text/event-stream it answers, its errors', () => {
    assert.deepEqual(Object.keys(doc.paths[STREAM]), ['get'], 'a GET, not an operation');
    const op = doc.paths[STREAM].get;
    assert.ok(op.summary);
    assert.match(op.description, /Server-Sent Events/);
    assert.match(op.description, /Authorization: Bearer <token>/);
    assert.deepEqual(op.security, [{ apiKey: [], authToken: [] }, { endUserToken: [] }], 'server headers, or a token');
    const params = Object.fromEntries(op.parameters.map((p: any) => [`${p.in} ${p.name}`, p]));
    for (const name of ['organizationId', 'documentId', 'types', 'token', 'lastEventId'])
      assert.equal(params[`query ${name}`]?.required, false, `the ${name} parameter`);
    assert.equal(params['query organizationId'].schema.maxLength, 256, 'with its limits');
    assert.ok(params['header last-event-id'], 'Last-Event-ID resumes');
    assert.deepEqual(Object.keys(op.responses['200'].content), ['text/event-stream']);
    const format = op.responses['200'].description;
    for (const part of [
      'id: <event id>',
      'data: <the event as JSON>',
      'no `event:` field',
      '{id, type, timestamp, organizationId, documentId?, data}',
      ': heartbeat',
      'event: close',
      '"lastEventId": N',
      'Last-Event-ID',
    ])
      assert.ok(format.includes(part), `the message format names ${part}`);
    for (const code of ['400', '401', '403', '405', '429', '500', '503']) {
      assert.deepEqual(
        op.responses[code]?.content['application/json'].schema,
        { $ref: '#/components/schemas/ErrorBody' },
        `${STREAM} answers ${code} in the envelope`,
      );
    }
    assert.match(op.responses['503'].description, /MARGINALIA_EVENT_STREAMS_MAX/);
    assert.match(op.responses['405'].description, /Allow: GET/);
    assert.ok(
      doc.tags.some((t: any) => t.name === 'events'),
      'its tag',
    );
  });

  test("v2's token operation is listed under both its names, and the pages not available with their 501", () => {
    const [generate, alias] = ['/v2/auth/generate_token', '/v2/auth/token/get'].map((p) => doc.paths[p]?.post);
    assert.ok(generate && alias, 'both names of the one operation');
    assert.deepEqual(alias, generate, 'the same operation under its other name');
    const resource =
      generate.requestBody.content['application/json'].schema.properties.data.properties.permissions.properties.resources;
    assert.equal(resource.maxItems, MAX_TOKEN_RESOURCES);
    assert.deepEqual(resource.items.properties.type.enum, ['organization', 'folder', 'document']);
    // The 54 pages of the original's other products are not listed one by one (Swagger UI stops rendering with
    // them: docs/decisions.md); their tag says what they answer, and docs/api.md lists them.
    for (const path of UNAVAILABLE_PATHS) assert.equal(doc.paths[path], undefined, `${path} is not listed`);
    assert.ok(doc.tags.some((t: any) => t.name === 'unavailable' && /501 UNIMPLEMENTED/.test(t.description)));
  });

  test('every operation has an example request: from docs/api.md where it has one, valid against its body schema', () => {
    // The bodies of docs/api.md's curl examples, by path: an operation's example is one of them where there are some.
    const documented = new Map<string, unknown[]>();
    for (const block of parseBlocks(readFileSync(join(REPO, 'docs/api.md'), 'utf8')))
      for (const { text } of block.commands) {
        const path = /\$M(\/v[12]\/[\w/.-]+)/.exec(text)?.[1];
        const body = /-d '([^']*)'/.exec(text)?.[1];
        if (path && body) documented.set(path, [...(documented.get(path) ?? []), (JSON.parse(body) as { data: unknown }).data]);
      }
    let fromDocs = 0;
    for (const [name, c] of Object.entries(CONTRACT) as [string, Contract][]) {
      const paths = namesOf(c).map(([version, n]) => `/${version}/${n}`);
      const bodies = paths.flatMap((path) => documented.get(path) ?? []);
      if (bodies.length > 0) {
        fromDocs++;
        assert.ok(
          bodies.some((body) => isDeepStrictEqual(body, c.example)),
          `${name}: its example is none of docs/api.md's for ${paths.join(', ')}:\n${JSON.stringify(c.example)}`,
        );
      }
      for (const [version, n] of namesOf(c)) {
        const path = `/${version}/${n}`;
        const example = (version === 'v2' ? c.v2?.example : undefined) ?? c.example;
        const body = ((version === 'v2' ? c.v2?.body : undefined) ?? c.body)(DEFAULT_LIMITS) as Record<string, unknown>;
        const check = validatorOf(t.app, body);
        // Checked closed (a member the schema does not name is refused), as answers are: the server would ignore it.
        assert.ok(check.Check({ data: example }), `${path}: ${JSON.stringify(check.Errors({ data: example })[1][0])}`);
        // /openapi.json shows it as the request body's example, which "Try it out" starts from.
        assert.deepEqual(doc.paths[path].post.requestBody.content['application/json'].example, { data: example }, path);
      }
    }
    // Most come from the docs; the rest are written beside their contract.
    assert.ok(fromDocs >= 80, `${fromDocs} examples from docs/api.md`);
  });

  test('the operational endpoints need no credentials', () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) assert.deepEqual(doc.paths[path].get.security, [], path);
  });

  test('the committed openapi.json is what the service serves (run `npm run openapi` after a schema change)', () => {
    const committed = JSON.parse(readFileSync(join(REPO, 'openapi.json'), 'utf8'));
    assert.deepEqual(committed, doc);
  });

  test('the configured limits are what the document says', async () => {
    const wide = await makeTestApp({ limits: { maxBatch: 5000, maxTextLength: 77, maxMarksPerRequest: 10_000 } });
    try {
      const d = (await wide.request('/openapi.json', { method: 'GET' })).json;
      const data = d.paths[PATHS.notificationsAdd].post.requestBody.content['application/json'].schema.properties.data;
      // notifyUsers is optional and nullable (docs/api.md, "Addressing and read state"): its array is the first of
      // its anyOf.
      const notifyUsers = data.properties.notifyUsers.anyOf?.find((x: { type?: string }) => x.type === 'array');
      assert.equal(notifyUsers?.maxItems, 5000);
      assert.equal(data.properties.displayHeadlineMessageTemplate.maxLength, 77);
    } finally {
      await wide.close();
    }
  });

  test('/docs serves the reference page, and its scripts and styles come from the server itself', async () => {
    const page = await t.request('/docs', { method: 'GET' });
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.length >= 3, page.body.slice(0, 500));
    for (const asset of assets) {
      assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} would leave the server`);
      const r = await t.request(new URL(asset, 'http://x/docs/').pathname, { method: 'GET' });
      assert.equal(r.status, 200, `${asset}: ${r.status}`);
    }
  });
});
