// Security basics (see SECURITY.md): no x-powered-by or other server fingerprint, credentials never in
// a log line (the real process at LOG_LEVEL=trace, through success, 400, 401, 404, 405, 413 and 429),
// pino's redaction of the credential headers wherever a header object is logged, and tokens at rest
// only as hashes (cli.test.ts checks the stored form).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { makeLogger } from '../../src/server.js';
import { PATHS } from '../helpers/app.js';
import { post, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { eventually } from '../helpers/eventually.js';

const API_KEY = 'sec-test-key-4cf0b1d2';
const TOKEN = 'sec-test-token-9e8d7c6b5a4f3e2d';
const WRONG_TOKEN = 'wrong-token-that-is-secret-too-1234';

describe('the real process at LOG_LEVEL=trace', () => {
  let db: FreshDatabase;
  let server: ServerProcess;
  const answers: { what: string; headers: Headers }[] = [];

  before(async () => {
    db = freshDatabase();
    server = await startServer({
      env: {
        ...db.env,
        LOG_LEVEL: 'trace',
        MARGINALIA_API_KEY: API_KEY,
        MARGINALIA_AUTH_TOKEN: TOKEN,
        MARGINALIA_RATE_LIMIT: '2',
        MARGINALIA_BODY_LIMIT: '2048',
      },
    });
    const creds = { apiKey: API_KEY, authToken: TOKEN };
    const raw = async (what: string, path: string, init: RequestInit) => {
      const res = await fetch(server.url + path, init);
      await res.text();
      answers.push({ what, headers: res.headers });
      return res.status;
    };
    const headers = { 'content-type': 'application/json', 'x-service-api-key': API_KEY, 'x-service-auth-token': TOKEN };
    assert.equal((await post(server.url, PATHS.notificationsGet, creds, { organizationId: 'o', documentId: 'd' })).status, 200);
    assert.equal(await raw('400', PATHS.notificationsGet, { method: 'POST', headers, body: '{"data": nope' }), 400);
    assert.equal(
      await raw('413', PATHS.notificationsGet, {
        method: 'POST',
        headers,
        body: JSON.stringify({ data: { pad: 'x'.repeat(4000) } }),
      }),
      413,
    );
    assert.equal(
      await raw('401', PATHS.notificationsGet, {
        method: 'POST',
        headers: { ...headers, 'x-service-auth-token': WRONG_TOKEN },
        body: '{"data":{}}',
      }),
      401,
    );
    assert.equal(await raw('404', '/v1/nothing', { method: 'POST', headers, body: '{}' }), 404);
    assert.equal(
      await raw('405', PATHS.notificationsGet, {
        method: 'GET',
        headers: { 'x-service-api-key': API_KEY, 'x-service-auth-token': TOKEN },
      }),
      405,
    );
    let status = 200;
    for (let i = 0; i < 10 && status !== 429; i++)
      status = await raw('200 or 429', PATHS.notificationsGet, {
        method: 'POST',
        headers,
        body: '{"data":{"organizationId":"o","documentId":"d"}}',
      });
    assert.equal(status, 429, 'the rate limit answered');
    assert.equal(await raw('healthz', '/healthz', { method: 'GET' }), 200);
  });
  after(async () => {
    if (server) await stopServer(server);
    await db?.drop();
  });

  test('no answer says what serves it: no x-powered-by, no server header', () => {
    assert.ok(answers.length >= 8);
    for (const a of answers) {
      assert.equal(a.headers.get('x-powered-by'), null, a.what);
      assert.equal(a.headers.get('server'), null, a.what);
    }
  });

  test('neither the API key, the token, nor a wrong token appears in any log line', async () => {
    // Every request's line is in (they reach the pipe shortly after the answers do).
    const completed = () =>
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"msg":"request completed"')).length;
    await eventually(
      () => `a log line per request: ${server.stdout().slice(0, 500)}`,
      () => completed() >= answers.length + 1,
    );
    const logs = server.stdout() + server.stderr();
    for (const secret of [API_KEY, TOKEN, WRONG_TOKEN]) assert.ok(!logs.includes(secret), `${secret} found in the logs`);
  });
});

describe('the logger', () => {
  test('redacts the credential headers wherever a request or a header object is logged', () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const logger = makeLogger({ logLevel: 'info' }, sink);
    const headers = { 'x-service-api-key': API_KEY, 'x-service-auth-token': TOKEN, 'content-type': 'application/json' };
    logger.info({ req: { method: 'POST', url: '/v1/x', headers } }, 'request');
    logger.info({ headers }, 'headers');
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.equal(lines[0].req.headers['x-service-auth-token'], '[redacted]');
    assert.equal(lines[0].req.headers['x-service-api-key'], '[redacted]');
    assert.equal(lines[0].req.headers['content-type'], 'application/json', 'other headers are kept');
    assert.equal(lines[1].headers['x-service-auth-token'], '[redacted]');
    assert.ok(!out.includes(TOKEN) && !out.includes(API_KEY), out);
  });

  test("redacts the workspace's credential headers, and their aliases", () => {
    let out = '';
    const sink = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const logger = makeLogger({ logLevel: 'info', workspaceTokenHeaders: ['x-velt-workspace-auth-token'] }, sink);
    const headers = {
      'x-service-workspace-id': 'mws_id',
      'x-service-workspace-auth-token': 'mwt_secret_one',
      'x-velt-workspace-auth-token': 'mwt_secret_two',
    };
    logger.info({ req: { method: 'POST', url: '/v2/workspace/apikeys/get', headers } }, 'request');
    logger.info({ headers }, 'headers');
    assert.ok(!out.includes('mwt_secret') && !out.includes('mws_id'), out);
  });
});
