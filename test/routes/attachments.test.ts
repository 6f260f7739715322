// Attachments (docs/api.md, "Attachments") on the configured database, stored on local disk: upload (raw and
// multipart), the comment's references, download headers, the refusals, tenant and end-user isolation, and the
// storage listed after each kind of delete once the removal worker has run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DiskStorage } from '../../src/attachments/disk.js';
import { removeDeletedFiles } from '../../src/attachments/removals.js';
import { type Caller, expectError, makeTestApp, PATHS, type TestApp, user, v2 } from '../helpers/app.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const MAX = 4096;
let now = Date.UTC(2025, 0, 15, 12);
let t: TestApp;
let dir: string;
let storage: DiskStorage;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marginalia-attachments-'));
  storage = new DiskStorage(dir);
  t = await makeTestApp({
    clock: () => now,
    attachments: { storage, maxBytes: MAX, types: [], expiryHours: 1, publicUrl: null },
  });
});
after(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const creds = (c: Caller) => ({ 'x-service-api-key': c.creds.apiKey, 'x-service-auth-token': c.creds.authToken });

async function upload(
  headers: Record<string, string>,
  query: Record<string, string>,
  payload: Buffer = PNG,
  type = 'image/png',
  path = '/v1/attachments/upload',
) {
  const res = await t.app.inject({
    method: 'POST',
    url: `${path}?${new URLSearchParams(query)}`,
    headers: { 'content-type': type, ...headers },
    payload,
  });
  return { status: res.statusCode, headers: res.headers, body: res.body, json: JSON.parse(res.body || 'null') };
}
const download = (id: number | string, headers: Record<string, string> = {}, query = '') =>
  t.app.inject({ method: 'GET', url: `/v1/attachments/${id}${query}`, headers });

/** Files left in storage once the removal worker has done its round. */
async function kept(): Promise<string[]> {
  await removeDeletedFiles(t.store, storage, now);
  return storage.list();
}

/** A thread `th` in a new organization's document `doc` whose comment 1 carries a fresh upload. */
async function attached(c: Caller = t.a) {
  const org = uniq('org');
  const up = await upload(creds(c), { organizationId: org, documentId: 'doc', name: 'shot.png' });
  assert.equal(up.status, 200, up.body);
  const id = up.json.result.data.attachmentId as number;
  await c.ok(v2(PATHS.annotationsAdd), {
    organizationId: org,
    documentId: 'doc',
    commentAnnotations: [
      {
        annotationId: 'th',
        commentData: [{ commentId: 1, commentText: 'see file', from: user('u'), attachments: [{ attachmentId: id }] }],
      },
    ],
  });
  return { org, id };
}

describe('attachments: happy paths', () => {
  test('a raw upload answers v2’s attachment object; a comment refers to it and shows it whole; the download serves it', async () => {
    const org = uniq('org');
    const up = await upload(creds(t.a), { organizationId: org, documentId: 'doc', name: 'shot.png' });
    assert.equal(up.status, 200, up.body);
    assert.equal(up.json.result.message, 'Attachment uploaded.');
    const a = up.json.result.data;
    assert.ok(Number.isSafeInteger(a.attachmentId) && a.attachmentId > 0);
    assert.deepEqual(a, {
      attachmentId: a.attachmentId,
      name: 'shot.png',
      size: PNG.length,
      type: 'image',
      mimeType: 'image/png',
      url: `/v1/attachments/${a.attachmentId}`,
      metadata: { sha256: (await import('node:crypto')).createHash('sha256').update(PNG).digest('hex'), uploadedAt: now },
    });
    const [key] = await storage.list();
    assert.equal(statSync(join(dir, key!)).mode & 0o777, 0o600);
    const foreign = { attachmentId: 7, name: 'x.png', url: 'https://elsewhere.example/x.png' };
    await t.a.ok(v2(PATHS.annotationsAdd), {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        {
          annotationId: 'th',
          commentData: [{ commentText: 'with file', from: user('u'), attachments: [{ attachmentId: a.attachmentId }, foreign] }],
        },
      ],
    });
    const comments = await t.a.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 'th' });
    assert.deepEqual(comments.data[0].attachments, [a, foreign]);
    const got = await download(a.attachmentId, creds(t.a));
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.rawPayload, PNG);
    assert.equal(got.headers['content-type'], 'image/png');
    assert.equal(got.headers['content-length'], String(PNG.length));
    assert.equal(got.headers['x-content-type-options'], 'nosniff');
    assert.equal(got.headers['content-disposition'], `attachment; filename="shot.png"; filename*=UTF-8''shot.png`);
    assert.equal(got.headers.etag, `"${a.metadata.sha256}"`);
    assert.equal(
      (await download(a.attachmentId, { ...creds(t.a), 'if-none-match': got.headers.etag as string })).statusCode,
      304,
    );
    // The upload expires no more once a comment holds it.
    now += 2 * 3_600_000;
    assert.ok((await kept()).includes(key!));
  });

  test('a multipart upload (/v2) takes its file part’s name and type', async () => {
    const boundary = 'b0undary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="documentId"\r\n\r\ndoc\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from('hello, attachments'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const up = await upload(
      creds(t.a),
      { organizationId: uniq('org') },
      body,
      `multipart/form-data; boundary=${boundary}`,
      '/v2/attachments/upload',
    );
    assert.equal(up.status, 200, up.body);
    assert.deepEqual(
      [up.json.result.data.name, up.json.result.data.mimeType, up.json.result.data.type, up.json.result.data.size],
      ['notes.txt', 'text/plain', 'file', 18],
    );
    const got = await download(up.json.result.data.attachmentId, creds(t.a));
    assert.equal(got.body, 'hello, attachments');
    // A file part over the limit is refused, never kept cut short.
    const big = Buffer.concat([
      body.subarray(0, body.indexOf('hello')),
      Buffer.alloc(MAX + 1, 0x61),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const refused = await upload(creds(t.a), { organizationId: uniq('org') }, big, `multipart/form-data; boundary=${boundary}`);
    expectError(refused, 413, 'INVALID_ARGUMENT', 'larger than');
  });
});

describe('attachments: errors', () => {
  test('too large (413), a refused type (415), content of another type, no documentId, empty: nothing kept', async () => {
    const before = await kept();
    const q = { organizationId: uniq('org'), documentId: 'doc' };
    expectError(await upload(creds(t.a), q, Buffer.concat([PNG, Buffer.alloc(MAX)])), 413, 'INVALID_ARGUMENT', 'larger than');
    for (const type of ['text/html', 'image/svg+xml', 'application/x-msdownload'])
      expectError(await upload(creds(t.a), q, Buffer.from('<svg onload=alert(1)>'), type), 415, 'INVALID_ARGUMENT', type);
    expectError(
      await upload(creds(t.a), q, Buffer.from('<html><script>alert(1)</script></html>')),
      400,
      'INVALID_ARGUMENT',
      'not image/png',
    );
    expectError(await upload(creds(t.a), { organizationId: 'o' }), 400, 'INVALID_ARGUMENT', 'documentId');
    expectError(await upload(creds(t.a), q, Buffer.alloc(0), 'text/plain'), 400, 'INVALID_ARGUMENT', 'empty');
    assert.deepEqual(await kept(), before);
  });

  test('a comment refusing references: unknown, another document’s, another comment’s; nothing written', async () => {
    const { org, id } = await attached();
    const add = (attachments: object[], documentId = 'doc') =>
      t.a.post(v2(PATHS.annotationsAdd), {
        organizationId: org,
        documentId,
        commentAnnotations: [{ annotationId: uniq('th'), commentData: [{ commentText: 'x', from: user('u'), attachments }] }],
      });
    expectError(await add([{ attachmentId: 123456789 }]), 400, 'INVALID_ARGUMENT', 'Attachment 123456789');
    expectError(await add([{ attachmentId: id }], 'other-doc'), 400, 'INVALID_ARGUMENT', `Attachment ${id}`);
    expectError(await add([{ attachmentId: id }]), 400, 'FAILED_PRECONDITION', 'another comment');
    const threads = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc' });
    assert.equal(threads.data.length, 1);
  });
});

describe('attachments: security', () => {
  test('another tenant can neither download nor refer to the upload', async () => {
    const { org, id } = await attached();
    const got = await download(id, creds(t.b));
    assert.equal(got.statusCode, 404, got.body);
    const r = await t.b.post(v2(PATHS.annotationsAdd), {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'th2', commentData: [{ commentText: 'x', from: user('u'), attachments: [{ attachmentId: id }] }] },
      ],
    });
    expectError(r, 400, 'INVALID_ARGUMENT', `Attachment ${id}`);
    assert.equal((await download(id)).statusCode, 401);
  });

  test('end users: an editor uploads and reads (header or ?token=); no access or a viewer is refused', async () => {
    const org = uniq('org');
    await t.a.ok(PATHS.usersAdd, { organizationId: org, users: [user('ana'), user('bo')] });
    await t.a.ok(PATHS.documentsAdd, { organizationId: org, documents: [{ documentId: 'doc' }, { documentId: 'locked' }] });
    await t.a.ok(PATHS.documentsAccess, { organizationId: org, documentIds: ['locked'], accessType: 'restricted' });
    const token = async (userId: string, o = org) =>
      (await t.a.ok(PATHS.authTokenGet, { userId, userProperties: { organizationId: o } })).data.token as string;
    const ana = await token('ana');
    const up = await upload({ authorization: `Bearer ${ana}` }, { organizationId: org, documentId: 'doc', name: 'a.png' });
    assert.equal(up.status, 200, up.body);
    const id = up.json.result.data.attachmentId;
    assert.equal((await download(id, { authorization: `Bearer ${ana}` })).statusCode, 200);
    assert.equal((await download(id, {}, `?token=${encodeURIComponent(ana)}`)).statusCode, 200);
    expectError(
      await upload({ authorization: `Bearer ${ana}` }, { organizationId: org, documentId: 'locked' }),
      403,
      'PERMISSION_DENIED',
    );
    const locked = await upload(creds(t.a), { organizationId: org, documentId: 'locked' });
    const denied = await download(locked.json.result.data.attachmentId, { authorization: `Bearer ${ana}` });
    assert.equal(denied.statusCode, 403, denied.body);
    const stranger = await token('zed', uniq('org'));
    assert.equal((await download(id, { authorization: `Bearer ${stranger}` })).statusCode, 404);
    expectError(
      await upload({ authorization: `Bearer ${stranger}` }, { organizationId: org, documentId: 'doc' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  test('a name is only ever shown: folders dropped, no header injection, RFC 5987 for the rest', async () => {
    const q = { organizationId: uniq('org'), documentId: 'doc' };
    const traversal = await upload(creds(t.a), { ...q, name: '../../../etc/passwd' });
    assert.equal(traversal.json.result.data.name, 'passwd');
    for (const key of await storage.list()) assert.match(key, /^[0-9a-f]{2}\/[0-9a-f]{32}$/);
    const evil = await upload(creds(t.a), { ...q, name: 'a"\r\nX-Evil: 1;\u00e9\u6f22.png' });
    assert.equal(evil.json.result.data.name, 'a"X-Evil: 1;\u00e9\u6f22.png');
    const got = await download(evil.json.result.data.attachmentId, creds(t.a));
    assert.equal(got.headers['x-evil'], undefined);
    assert.equal(
      got.headers['content-disposition'],
      `attachment; filename="a_X-Evil: 1;__.png"; filename*=UTF-8''a%22X-Evil%3A%201%3B%C3%A9%E6%BC%A2.png`,
    );
  });
});

describe('attachments: deletes remove the files', () => {
  const keyOf = async (id: number) =>
    (await t.store.attachment((await t.store.findCredentials(t.a.creds.apiKey))!.tenant.id, id))!.storageKey;

  test('comment, thread, document, organization, erasure, a changed comment and expiry each leave no file behind', async () => {
    const cases: [string, (w: { org: string; id: number }) => Promise<unknown>][] = [
      [
        'comment',
        ({ org }) =>
          t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'th', commentIds: [1] }),
      ],
      ['thread', ({ org }) => t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['th'] })],
      ['document', ({ org }) => t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['doc'] })],
      ['organization', ({ org }) => t.a.ok(PATHS.organizationsDelete, { organizationIds: [org] })],
      ['erasure', ({ org }) => t.a.ok(PATHS.userDataDelete, { userIds: ['u'], organizationIds: [org] })],
      [
        'comment changed',
        ({ org }) =>
          t.a.ok(PATHS.commentsUpdate, {
            organizationId: org,
            documentId: 'doc',
            annotationId: 'th',
            commentIds: [1],
            updatedData: { attachments: [] },
          }),
      ],
    ];
    for (const [what, remove] of cases) {
      const w = await attached();
      const key = await keyOf(w.id);
      assert.ok((await kept()).includes(key), what);
      await remove(w);
      assert.ok(!(await kept()).includes(key), `${what}: ${key} is still stored`);
      assert.equal((await download(w.id, creds(t.a))).statusCode, 404, what);
    }
    const org = uniq('org');
    const up = await upload(creds(t.a), { organizationId: org, documentId: 'doc' });
    const key = await keyOf(up.json.result.data.attachmentId);
    // A removal that fails stays queued, and comes back later.
    const failing = { ...storage, list: () => storage.list(), remove: async () => Promise.reject(new Error('storage down')) };
    await t.db.exec(`DELETE FROM attachments WHERE storage_key = '${key}'`); // as any delete does, by its trigger
    const said: unknown[] = [];
    assert.equal(await removeDeletedFiles(t.store, failing as unknown as DiskStorage, now, (err) => said.push(err)), 0);
    assert.deepEqual(
      said.map((e) => (e as Error).message),
      ['storage down'],
      'the failure is said, for the log',
    );
    assert.ok((await storage.list()).includes(key), 'kept while the storage fails');
    assert.equal(await removeDeletedFiles(t.store, storage, now), 0, 'not due again at once');
    assert.equal(await removeDeletedFiles(t.store, storage, now + 1000), 1, 'removed on a later round');
    assert.ok(!(await storage.list()).includes(key));
    const again = await upload(creds(t.a), { organizationId: org, documentId: 'doc' });
    const expiring = await keyOf(again.json.result.data.attachmentId);
    now += 3_600_000 - 1;
    assert.ok((await kept()).includes(expiring), 'not yet expired');
    now += 2;
    assert.ok(!(await kept()).includes(expiring), 'expired');
  });
});
