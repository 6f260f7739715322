// The pure parts of `marginalia import` (src/import/): the source client's paging, retries, refusals and
// redirects against a small local server, the checkpoint file, folder order, thread mapping and the comparison.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Checkpoint } from '../../src/import/checkpoint.js';
import { comparisonLines, differences } from '../../src/import/compare.js';
import { parentsFirst, threadIn } from '../../src/import/copy.js';
import { backoffMs, NotServed, Source, SourceError, sourceBase } from '../../src/import/source.js';

type Handler = (path: string, body: any, res: ServerResponse) => void;

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (d) => {
      text += d;
    });
    req.on('end', () => handler(req.url ?? '', JSON.parse(text || '{}'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const answer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const sourceAt = (baseUrl: string) =>
  new Source({
    baseUrl,
    apiKey: 'k',
    authToken: 't',
    concurrency: 2,
    rate: 1000,
    timeoutMs: 5000,
    attempts: 3,
    sleep: async () => {},
  });

describe('the source client', () => {
  it('pages until no token, on /v2 where it answers (nextPageToken) and v1 where it does not', async () => {
    const seen: string[] = [];
    const url = await serve((path, body, res) => {
      seen.push(`${path} ${body.data.pageToken ?? '-'}`);
      if (path === '/v2/users/get') return answer(res, 404, { error: { status: 'NOT_FOUND', message: 'no' } });
      if (path === '/v2/organizations/get')
        return body.data.pageToken
          ? answer(res, 200, { result: { data: [{ id: 'b' }] } })
          : answer(res, 200, { result: { data: [{ id: 'a' }], nextPageToken: 'p2' } });
      return body.data.pageToken
        ? answer(res, 200, { result: { data: [2] } })
        : answer(res, 200, { result: { data: [1], pageToken: 'x' } });
    });
    const source = sourceAt(url);
    assert.deepEqual(await source.all('organizations/get', {}, 10), [{ id: 'a' }, { id: 'b' }]);
    assert.deepEqual(await source.all('users/get', { organizationId: 'o' }, 10), [1, 2]);
    assert.deepEqual(seen, [
      '/v2/organizations/get -',
      '/v2/organizations/get p2',
      '/v2/users/get -',
      '/v1/users/get -',
      '/v1/users/get x',
    ]);
  });

  it('retries 429 and 5xx, then answers; says a 401 is a refused key; never follows a redirect', async () => {
    let calls = 0;
    const url = await serve((path, _body, res) => {
      calls++;
      if (path.endsWith('/flaky'))
        return calls < 3 ? answer(res, calls === 1 ? 429 : 503, {}) : answer(res, 200, { result: { data: 'ok' } });
      if (path.endsWith('/refused')) return answer(res, 401, { error: { status: 'UNAUTHENTICATED', message: 'no' } });
      if (path.endsWith('/moved')) return answer(res, 302, {}, { location: 'http://elsewhere.example/' });
      return answer(res, 500, {});
    });
    const source = sourceAt(url);
    assert.equal((await source.call('v1', 'flaky', {})).data, 'ok');
    assert.equal(calls, 3);
    await assert.rejects(source.call('v1', 'refused', {}), /refused the API key or auth token \(401/);
    await assert.rejects(source.call('v1', 'moved', {}), /redirect \(302\) to http:\/\/elsewhere\.example\/: not followed/);
    calls = 0;
    await assert.rejects(source.call('v1', 'broken', {}), /answered 500/);
    assert.equal(calls, 3, 'as many attempts as asked, no more');
  });

  it('a read the source has on neither version (404 or 501) is NotServed, which the copy may go on without', async () => {
    const url = await serve((path, _body, res) => {
      if (path.endsWith('/organizations/usergroups/get'))
        return answer(res, 404, { error: { status: 'NOT_FOUND', message: 'no' } });
      if (path.endsWith('/missing')) return answer(res, 501, { error: { status: 'UNIMPLEMENTED', message: 'no' } });
      return answer(res, 403, { error: { status: 'PERMISSION_DENIED', message: 'denied' } });
    });
    const source = sourceAt(url);
    const groups = source.all('organizations/usergroups/get', { organizationId: 'o' }, 10);
    await assert.rejects(
      groups,
      (err) => err instanceof NotServed && /no \/v1\/organizations\/usergroups\/get \(404\)/.test(err.message),
    );
    await assert.rejects(source.read('missing', {}), NotServed);
    // A refusal is no missing read: the import stops on it.
    await assert.rejects(source.read('denied', {}), (err) => err instanceof SourceError && !(err instanceof NotServed));
  });

  it('keeps at most `concurrency` requests in flight, started at most `rate` a second', async () => {
    let inFlight = 0;
    let most = 0;
    const url = await serve((_path, _body, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        answer(res, 200, { result: { data: null } });
      }, 30);
    });
    const source = new Source({
      baseUrl: url,
      apiKey: 'k',
      authToken: 't',
      concurrency: 2,
      rate: 50,
      timeoutMs: 5000,
      attempts: 1,
    });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => source.call('v1', 'x', {})));
    assert.equal(most, 2);
    assert.ok(Date.now() - started >= 5 * 20 - 5, 'six starts 20 ms apart take 100 ms at least');
    assert.equal(source.requests, 6);
  });

  it('takes http(s) base URLs without credentials, and keeps a path prefix', () => {
    assert.equal(sourceBase('https://api.example.com/prefix/').href, 'https://api.example.com/prefix');
    assert.throws(() => sourceBase('ftp://x'), SourceError);
    assert.throws(() => sourceBase('https://u:p@x'), /credentials/);
    assert.throws(() => sourceBase('not a url'), /not a URL/);
  });

  it('backs off doubling, and waits out a longer Retry-After', () => {
    assert.deepEqual(
      [0, 1, 2].map((a) => backoffMs(a, null)),
      [500, 1000, 2000],
    );
    assert.equal(backoffMs(0, '7'), 7000);
    assert.equal(backoffMs(20, null), 30_000);
  });
});

describe('the checkpoint', () => {
  const dir = mkdtempSync(join(tmpdir(), 'marginalia-import-'));
  it('is saved whole at each step, and resumed only for the same source and tenant', () => {
    const file = join(dir, 'c.json');
    const { checkpoint, resumed } = Checkpoint.open(file, 'http://a/', 't1');
    assert.equal(resumed, false);
    checkpoint.count('threads', 3);
    checkpoint.complete('org:acme');
    assert.deepEqual(readdirSync(dir), ['c.json'], 'no temporary file left beside it');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).done, ['org:acme']);
    checkpoint.complete('users:acme');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).done, ['org:acme'], 'at most a save a second');
    checkpoint.save();
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).done, ['org:acme', 'users:acme']);
    const again = Checkpoint.open(file, 'http://a/', 't1');
    assert.equal(again.resumed, true);
    assert.ok(again.checkpoint.has('org:acme') && again.checkpoint.has('users:acme'));
    assert.equal(again.checkpoint.counts.threads, 3);
    assert.equal(Checkpoint.open(file, 'http://b/', 't1').resumed, false);
    assert.equal(Checkpoint.open(file, 'http://a/', 't2').resumed, false);
  });
});

describe('copying', () => {
  it('orders folders parents first, whatever order they came in', () => {
    const order = parentsFirst([
      { folderId: 'c', parentFolderId: 'b' },
      { folderId: 'b', parentFolderId: 'a' },
      { folderId: 'a', parentFolderId: 'root' },
      { folderId: 'z', parentFolderId: 'root' },
    ]).map((f) => f.folderId);
    assert.deepEqual(order, ['a', 'b', 'c', 'z']);
  });

  it('writes a thread as it reads: ids, authors, times (v1 comment lastUpdated as ISO), assignment, tags', () => {
    const written = threadIn({
      annotationId: 't1',
      type: 'comment',
      from: { userId: 'ann', name: 'Ann' },
      assignedTo: { userId: 'bob', name: 'Bob', email: 'b@x' },
      status: { id: 'OPEN' },
      createdAt: 1,
      lastUpdated: 2,
      metadata: { apiKey: 'k' },
      locationId: 'p',
      comments: [
        {
          commentId: 4,
          commentHtml: '<p>x</p>',
          commentText: 'x',
          from: { userId: 'cy', name: 'Cy' },
          createdAt: 3,
          lastUpdated: '1970-01-01T00:00:00.005Z',
          status: 'added',
          taggedUserContacts: [{ userId: 'ann' }],
        },
      ],
    });
    assert.deepEqual(written, {
      annotationId: 't1',
      locationId: 'p',
      status: { id: 'OPEN' },
      type: 'comment',
      assignedTo: { userId: 'bob' },
      createdAt: 1,
      lastUpdated: 2,
      commentData: [
        {
          commentId: 4,
          commentText: 'x',
          commentHtml: '<p>x</p>',
          taggedUserContacts: [{ userId: 'ann' }],
          from: { userId: 'cy' },
          createdAt: 3,
          lastUpdated: 5,
        },
      ],
    });
  });
});

describe('the comparison', () => {
  it('names the documents whose counts differ, a missing one as zeros', () => {
    const source = new Map([
      ['o/a', { threads: 1, comments: 2, unread: 0 }],
      ['o/b', { threads: 1, comments: 1, unread: 1 }],
    ]);
    const here = new Map([
      ['o/a', { threads: 1, comments: 2, unread: 0 }],
      ['o/b', { threads: 1, comments: 1, unread: 0 }],
      ['o/c', { threads: 1, comments: 1, unread: 0 }],
    ]);
    assert.deepEqual(
      differences(source, here).map((d) => d.document),
      ['o/b', 'o/c'],
    );
    const lines = comparisonLines(source, here);
    assert.equal(lines.at(-1), '2 of 3 documents differ: o/b, o/c');
    assert.equal(lines[2], 'o/b  1/1/1  1/1/0  DIFFERS');
    assert.equal(comparisonLines(source, source).at(-1), 'All 2 documents have the same counts on both sides.');
  });
});
