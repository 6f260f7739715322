// The typed client made with an end-user token, as a browser uses it, against a recording fetch: every
// call and the stream carry `Authorization: Bearer` and no server credential; a token function is asked
// at each use; fetch is called as a browser's must be (never as a method of another object). And the
// browser bundle (scripts/bundle-client.mjs) behaves as the source does, its paths folded in as data.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { Marginalia, MarginaliaError } from '../../client/src/index.js';
import { REPO } from '../helpers/server-process.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * A fetch that records what it is asked and answers `answer`; like a browser's, it throws "Illegal
 * invocation" when called as a method of anything but the global object.
 */
function recordingFetch(answer: () => Response) {
  const sent: Sent[] = [];
  const fetch = function (this: unknown, input: string | URL | Request, init?: RequestInit) {
    if (this !== undefined && this !== globalThis) throw new TypeError("Failed to execute 'fetch': Illegal invocation");
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>));
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    sent.push({ url: String(input), method: init?.method ?? 'GET', headers, body });
    return Promise.resolve(answer());
  } as typeof globalThis.fetch;
  return { fetch, sent };
}

const ok = (data: unknown) => () => new Response(JSON.stringify({ result: { status: 'success', message: 'm', data } }));
const serverHeaders = (h: Record<string, string>) => Object.keys(h).filter((k) => k.startsWith('x-service-'));

test('with a token, calls send Authorization: Bearer and no server credential; a token function is asked each call', async () => {
  const { fetch, sent } = recordingFetch(ok({ total: 2, unread: 1 }));
  let asked = 0;
  const api = new Marginalia({ baseUrl: 'https://m.example/', token: async () => `tok-${++asked}`, fetch });
  assert.deepEqual((await api.notifications.count({ organizationId: 'acme', userId: 'ana' })).data, { total: 2, unread: 1 });
  await api.v2.notificationsGet({ organizationId: 'acme' });
  assert.equal(sent.length, 2);
  assert.equal(sent[0]!.url, 'https://m.example/v1/notifications/count/get');
  assert.equal(sent[0]!.method, 'POST');
  assert.deepEqual(sent[0]!.body, { data: { organizationId: 'acme', userId: 'ana' } });
  assert.equal(sent[0]!.headers.authorization, 'Bearer tok-1');
  assert.equal(sent[1]!.url, 'https://m.example/v2/notifications/get');
  assert.equal(sent[1]!.headers.authorization, 'Bearer tok-2');
  assert.deepEqual(
    sent.flatMap((s) => serverHeaders(s.headers)),
    [],
  );
});

test("the stream of a token client opens with the client's token; a refusal is thrown", async () => {
  const { fetch, sent } = recordingFetch(
    () =>
      new Response(JSON.stringify({ error: { status: 'PERMISSION_DENIED', message: 'Origin not allowed.' } }), {
        status: 403,
      }),
  );
  const api = new Marginalia({ baseUrl: 'https://m.example', token: 'tok', fetch });
  const events = api.events.subscribe({ organizationId: 'acme', types: ['notification.*'] });
  await assert.rejects(
    events.next(),
    (e: unknown) => e instanceof MarginaliaError && e.status === 'PERMISSION_DENIED' && e.httpStatus === 403,
  );
  assert.equal(sent[0]!.url, 'https://m.example/v1/events?organizationId=acme&types=notification.*');
  assert.equal(sent[0]!.headers.authorization, 'Bearer tok');
  assert.deepEqual(serverHeaders(sent[0]!.headers), []);
  // A token given to subscribe wins over the client's.
  const other = api.events.subscribe({ token: () => 'other' });
  await assert.rejects(other.next());
  assert.equal(sent[1]!.headers.authorization, 'Bearer other');
});

test('a client needs server credentials or a token', () => {
  assert.throws(() => new Marginalia({ baseUrl: 'https://m.example' } as never), /apiKey and authToken .* or token/);
});

test('the browser bundle calls as the source does, without the schemas', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'marginalia-bundle-'));
  try {
    const out = join(dir, 'marginalia.js');
    const printed = execFileSync(process.execPath, [join(REPO, 'scripts/bundle-client.mjs'), out], {
      cwd: REPO,
      encoding: 'utf8',
    });
    assert.match(printed, /marginalia\.js: [\d.]+ kB raw, [\d.]+ kB gzipped/);
    const bundle = (await import(pathToFileURL(out).href)) as typeof import('../../client/src/index.js');
    const { fetch, sent } = recordingFetch(ok({ read: 3 }));
    const api = new bundle.Marginalia({ baseUrl: 'https://m.example', token: 'tok', fetch });
    assert.deepEqual((await api.notifications.markRead({ organizationId: 'acme', userId: 'ana' })).data, { read: 3 });
    await api.comments.add({
      organizationId: 'acme',
      documentId: 'd',
      annotationId: 't',
      commentData: [{ commentText: 'hi' }],
    } as never);
    assert.deepEqual(
      sent.map((s) => [s.url, s.headers.authorization]),
      [
        ['https://m.example/v1/notifications/read', 'Bearer tok'],
        ['https://m.example/v1/commentannotations/comments/add', 'Bearer tok'],
      ],
    );
    assert.deepEqual(bundle.EVENT_TYPES, (await import('../../client/src/index.js')).EVENT_TYPES);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
