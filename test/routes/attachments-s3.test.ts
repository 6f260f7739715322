// Attachments in an S3-compatible store (docs/operations.md, "Attachments"), against s3rver, a local S3-compatible
// server that checks SigV4 signatures, on the configured database: upload, download, and the bucket listed after
// each kind of delete once the removal worker has run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import S3rver from 's3rver';
import { removeDeletedFiles } from '../../src/attachments/removals.js';
import { S3Storage } from '../../src/attachments/s3.js';
import { makeTestApp, PATHS, type TestApp, user, v2 } from '../helpers/app.js';

const PDF = Buffer.from('%PDF-1.7\n% a small document\n%%EOF\n');
let t: TestApp;
let dir: string;
let s3: { close(): Promise<void> };
let storage: S3Storage;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'marginalia-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'files' }],
  });
  const { port } = await server.run();
  s3 = server;
  storage = new S3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'files',
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    pathStyle: true,
  });
  t = await makeTestApp({ attachments: { storage, maxBytes: 1 << 20, types: [], expiryHours: 1, publicUrl: null } });
});
after(async () => {
  await t.close();
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
const creds = () => ({ 'x-service-api-key': t.a.creds.apiKey, 'x-service-auth-token': t.a.creds.authToken });
const kept = async () => {
  await removeDeletedFiles(t.store, storage, Date.now());
  return storage.list();
};

async function attached() {
  const org = `s3-org-${++seq}`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/attachments/upload?organizationId=${org}&documentId=doc&name=spec.pdf`,
    headers: { ...creds(), 'content-type': 'application/pdf' },
    payload: PDF,
  });
  assert.equal(res.statusCode, 200, res.body);
  const id = JSON.parse(res.body).result.data.attachmentId as number;
  await t.a.ok(v2(PATHS.annotationsAdd), {
    organizationId: org,
    documentId: 'doc',
    commentAnnotations: [
      {
        annotationId: 'th',
        commentData: [{ commentId: 1, commentText: 'pdf', from: user('u'), attachments: [{ attachmentId: id }] }],
      },
    ],
  });
  return { org, id };
}

describe('attachments in an S3-compatible store', () => {
  test('upload and download go through the bucket; a refused upload leaves nothing there', async () => {
    const { id } = await attached();
    const keys = await kept();
    assert.equal(keys.length, 1);
    const got = await t.app.inject({ method: 'GET', url: `/v1/attachments/${id}`, headers: creds() });
    assert.equal(got.statusCode, 200, got.body);
    assert.deepEqual(got.rawPayload, PDF);
    assert.equal(got.headers['content-disposition'], `attachment; filename="spec.pdf"; filename*=UTF-8''spec.pdf`);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/attachments/upload?organizationId=o&documentId=doc',
      headers: { ...creds(), 'content-type': 'application/pdf' },
      payload: Buffer.from('<html>not a pdf</html>'),
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(await kept(), keys);
  });

  test('each kind of delete leaves no object in the bucket', async () => {
    const deletes: [string, (org: string) => Promise<unknown>][] = [
      [
        'comment',
        (org) => t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 'th', commentIds: [1] }),
      ],
      ['thread', (org) => t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['th'] })],
      ['document', (org) => t.a.ok(PATHS.documentsDelete, { organizationId: org, documentIds: ['doc'] })],
      ['organization', (org) => t.a.ok(PATHS.organizationsDelete, { organizationIds: [org] })],
      ['erasure', (org) => t.a.ok(PATHS.userDataDelete, { userIds: ['u'], organizationIds: [org] })],
    ];
    for (const [what, remove] of deletes) {
      const before = await kept();
      const { org } = await attached();
      assert.equal((await kept()).length, before.length + 1, what);
      await remove(org);
      assert.deepEqual(await kept(), before, `${what}: the object is gone`);
    }
  });
});
