// `marginalia import` against a second Marginalia process as the source (docs/operations.md, "Importing"): a seeded
// dataset of several organizations comes over (user groups too, read with the extension organizations/usergroups/get),
// the same reads on both servers answer the same JSON (the groups reads the same bytes), an import stopped mid-way
// resumes without duplicates, a dry run writes nothing, and a source without the groups read (404) is copied
// without groups, said once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  cli,
  cliInBackground,
  createKey,
  MAIN,
  post,
  REPO,
  startServer,
  stopServer,
  tempDir,
  type ServerProcess,
} from '../helpers/server-process.js';
import { freshDatabase, STORE_KINDS } from '../helpers/test-database.js';

type Creds = { apiKey: string; authToken: string };

const sourceDb = freshDatabase('sqlite');
const targets = STORE_KINDS.map((kind) => freshDatabase(kind));
const servers: ServerProcess[] = [];
let source: ServerProcess;
let sourceCreds: Creds;
const dir = tempDir();

const ORGS = ['acme', 'globex', 'initech'];
const USERS = ['ann', 'bob', 'cy', 'dee'];
const DOCS = ['spec', 'plan', 'notes'];
/** Organizations with user groups (globex has none): editors (named), readers (never named; a member without a profile). */
const GROUPED = new Set(['acme', 'initech']);
const T0 = 1_700_000_000_000;
/** A day: organizations, folders and documents are seeded that long before T0, so equal times mean they came over. */
const DAY = 86_400_000;

async function ok(path: string, data: unknown, creds = sourceCreds, url = source.url) {
  const r = await post(url, path, creds, data);
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.json)}`);
  return r.json.result;
}

/** Per organization: folders, documents, members, threads with comments, notifications with read state, settings. */
async function seed(organizationId: string, n: number) {
  const past = T0 - (n + 10) * DAY;
  await ok('/v1/organizations/add', {
    organizations: [{ organizationId, organizationName: `Org ${organizationId}`, createdAt: past, lastUpdated: past + 7 }],
  });
  // drafts and the documents but spec: lastUpdated (or both times) not given, so now on the source.
  await ok('/v1/organizations/folders/add', {
    organizationId,
    folders: [
      { folderId: 'specs', folderName: 'Specs', createdAt: past + 1, lastUpdated: past + 2 },
      { folderId: 'drafts', folderName: 'Drafts', parentFolderId: 'specs', createdAt: past + 3 },
    ],
  });
  await ok('/v1/organizations/documents/add', {
    organizationId,
    folderId: 'drafts',
    documents: [{ documentId: 'spec', documentName: 'Spec', createdAt: past + 4, lastUpdated: past + 5 }],
  });
  await ok('/v1/organizations/documents/add', { organizationId, documents: [{ documentId: 'plan' }, { documentId: 'notes' }] });
  const users = USERS.map((u) => ({ userId: u, name: `${u} of ${organizationId}`, email: `${u}@${organizationId}.test` }));
  await ok('/v1/users/add', { organizationId, users });
  await ok('/v1/users/add', { organizationId, documentId: 'spec', users: users.slice(0, 2) });
  for (const [d, documentId] of DOCS.entries()) {
    const threads = Array.from({ length: 2 + ((n + d) % 3) }, (_, t) => ({
      annotationId: `t${t}`,
      locationId: `para-${t}`,
      createdAt: T0 + t * 1000,
      lastUpdated: T0 + t * 1000 + 500,
      ...(t === 0 ? { assignedTo: { userId: 'bob' }, status: { id: 'IN_PROGRESS', name: 'In progress', type: 'ongoing' } } : {}),
      ...(t === 1 ? { color: '#00FF00', priority: { id: 'P1', name: 'High' } } : {}),
      commentData: Array.from({ length: 1 + (t % 3) }, (_, c) => ({
        commentHtml: `<p>Comment ${c} on ${documentId}/t${t}</p>`,
        from: { userId: USERS[(t + c) % USERS.length] },
        createdAt: T0 + t * 1000 + c * 10,
        lastUpdated: T0 + t * 1000 + c * 10 + 1,
        ...(c === 0 ? { taggedUserContacts: [{ userId: 'cy', text: '@cy' }] } : {}),
      })),
    }));
    await ok('/v1/commentannotations/add', { organizationId, documentId, commentAnnotations: threads });
  }
  // A reply that notifies (fan-out notifications with server-made ids), a listed and an organization-wide one.
  await ok('/v1/commentannotations/comments/add', {
    organizationId,
    documentId: 'spec',
    annotationId: 't0',
    triggerNotification: true,
    commentData: [
      { commentHtml: '<p>@ann look</p>', from: { userId: 'dee' }, taggedUserContacts: [{ userId: 'ann', text: '@ann' }] },
    ],
  });
  await ok('/v1/notifications/add', {
    organizationId,
    documentId: 'plan',
    notificationId: 'n-listed',
    actionUser: { userId: 'ann' },
    displayHeadlineMessageTemplate: '{actionUser} shared plan',
    displayHeadlineMessageTemplateData: { actionUser: { userId: 'ann' } },
    notifyUsers: [{ userId: 'bob' }, { userId: 'cy' }],
  });
  await ok('/v1/notifications/add', {
    organizationId,
    notificationId: 'n-all',
    actionUser: { userId: 'cy' },
    displayHeadlineMessageTemplate: 'Maintenance tonight',
  });
  await ok('/v1/notifications/read', { organizationId, userId: 'bob', notificationIds: ['n-listed'] });
  await ok('/v1/notifications/read', { organizationId, userId: 'dee', notificationIds: ['n-all'] });
  await ok('/v1/notifications/config/set', { organizationId, documentIds: ['spec'], userIds: ['cy'], config: { inbox: 'ALL' } });
  if (GROUPED.has(organizationId)) {
    await ok('/v1/organizations/usergroups/add', {
      organizationId,
      organizationUserGroups: [{ groupId: 'editors', groupName: `Editors of ${organizationId}` }, { groupId: 'readers' }],
    });
    const join = (organizationUserGroupId: string, userIds: string[]) =>
      ok('/v1/organizations/usergroups/users/add', { organizationId, organizationUserGroupId, userIds });
    await join('editors', ['ann', 'bob']);
    // 'ghost' has no profile: users/get shows them on neither side.
    await join('readers', ['cy', 'dee', 'ghost']);
  }
  // A disabled document refuses every write: the import disables it last, and a run after a finished one (the
  // resume test's last) only reads it.
  if (organizationId === 'initech')
    await ok('/v1/organizations/documents/access/disablestate/update', {
      organizationId,
      documentIds: ['notes'],
      disabled: true,
    });
}

/** The groups reads (organizations/usergroups/get, users/get by group) as the bytes of their bodies. */
async function groupReads(url: string, creds: Creds): Promise<string[]> {
  const bodies: string[] = [];
  const read = async (path: string, data: unknown) => {
    const r = await post(url, path, creds, data);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    bodies.push(r.text);
    return r.json.result.data;
  };
  for (const organizationId of ORGS)
    for (const v of ['v1', 'v2']) {
      const groups = await read(`/${v}/organizations/usergroups/get`, { organizationId });
      await read(`/${v}/organizations/usergroups/get`, { organizationId, pageSize: 1 });
      for (const { groupId } of groups) await read(`/${v}/users/get`, { organizationId, organizationUserGroupIds: [groupId] });
    }
  return bodies;
}

/** The reads compared on both servers, as JSON, the source's key named as the target's (the only difference). */
async function reads(url: string, creds: Creds): Promise<string> {
  const all: unknown[] = [];
  const read = async (path: string, data: unknown) => {
    const r = await post(url, path, creds, data);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.json)}`);
    // notifyUsers is keyed by internal ids, which are made from the tenant's id: notifyUsersByUserId says the same.
    all.push(JSON.parse(JSON.stringify(r.json.result.data, (k, v) => (k === 'notifyUsers' ? undefined : v))));
  };
  for (const organizationId of ORGS) {
    await read('/v1/users/get', { organizationId });
    await read('/v1/users/get', { organizationId, documentId: 'spec' });
    for (const documentId of DOCS) {
      await read('/v1/commentannotations/get', { organizationId, documentId });
      await read('/v1/notifications/get', { organizationId, documentId });
      await read('/v1/commentannotations/count/get', { organizationId, documentIds: [documentId], userId: 'ann' });
    }
    for (const userId of USERS) {
      await read('/v1/notifications/get', { organizationId, userId });
      await read('/v1/notifications/count/get', { organizationId, userId });
      await read('/v1/notifications/config/get', { organizationId, userId, documentIds: DOCS });
    }
    // Every member, createdAt and lastUpdated included (docs/operations.md, "What is kept").
    await read('/v1/organizations/folders/get', { organizationId });
    await read('/v1/organizations/folders/get', { organizationId, folderId: 'specs' });
    await read('/v1/organizations/documents/get', { organizationId });
  }
  await read('/v1/organizations/get', { organizationIds: ORGS });
  return JSON.stringify(all).replaceAll(creds.apiKey, '<key>');
}

const importArgs = (extra: string[] = []) => [
  'import',
  '--from',
  source.url,
  '--api-key',
  sourceCreds.apiKey,
  '--auth-token',
  sourceCreds.authToken,
  ...extra,
];

let expected: string;
let expectedGroups: string[];

before(async () => {
  source = await startServer({ env: sourceDb.env });
  servers.push(source);
  sourceCreds = createKey(sourceDb.env, 'source');
  for (const [n, org] of ORGS.entries()) await seed(org, n);
  expected = await reads(source.url, sourceCreds);
  expectedGroups = await groupReads(source.url, sourceCreds);
  const groupsText = expectedGroups.join('\n');
  for (const kept of ['"groupName":"Editors of acme"', '"groupId":"readers","groupName":""', '"userId":"dee"', '"pageToken"'])
    assert.ok(groupsText.includes(kept), kept);
  // What the comparison must carry over, so that equal answers mean something.
  for (const kept of [
    '"n-all"',
    '"dee":false',
    '"bob":false',
    'IN_PROGRESS',
    '"assignedTo"',
    '"taggedUserContacts"',
    '"ALL"',
    '"drafts"',
  ])
    assert.ok(expected.includes(kept), kept);
  assert.match(expected, /"notificationSource":"comment"/);
  assert.match(expected, /"createdAt":1700000001000/);
  // Organizations', folders' and documents' times from before T0: equal reads mean the import kept them.
  for (const time of [T0 - 10 * DAY, T0 - 10 * DAY + 7, T0 - 11 * DAY + 2, T0 - 12 * DAY + 3, T0 - 10 * DAY + 5])
    assert.ok(expected.includes(`:${time}`), String(time));
});

after(async () => {
  await Promise.all(servers.map((s) => stopServer(s)));
  await Promise.all([sourceDb, ...targets].map((db) => db.drop()));
});

for (const db of targets)
  test(`import into ${db.kind}: every organization comes over, and the same reads answer the same JSON`, async (t) => {
    const here = createKey(db.env, 'here');
    const checkpoint = join(dir, `${db.kind}.checkpoint.json`);
    const imported = cli(importArgs(['--checkpoint', checkpoint, '--rate', '1000', '--concurrency', '4']), db.env);
    assert.equal(imported.code, 0, imported.stderr + imported.stdout);
    t.diagnostic(/^Imported .*$/m.exec(imported.stdout)?.[0] ?? '');
    assert.match(imported.stdout, /All 9 documents have the same counts on both sides\./);
    assert.match(imported.stdout, /^acme\/spec {2}\d+\/\d+\/\d+ {2}\d+\/\d+\/\d+$/m);
    assert.ok(!existsSync(checkpoint), 'a finished import leaves no checkpoint');
    const target = await startServer({ env: db.env });
    servers.push(target);
    assert.equal(await reads(target.url, here), expected);
    assert.deepEqual(await groupReads(target.url, here), expectedGroups);
    assert.match(imported.stdout, /^Imported .*\b4 groups\b/m);
    await stopServer(target);
  });

test('an import stopped mid-way resumes from its checkpoint without duplicates', async () => {
  const db = freshDatabase('sqlite');
  after(() => db.drop());
  const here = createKey(db.env, 'here');
  const checkpoint = join(dir, 'stopped.checkpoint.json');
  // Slowed to a few requests a second, interrupted (Ctrl-C) once the checkpoint shows progress.
  const child = spawn(
    process.execPath,
    [MAIN, ...importArgs(['--checkpoint', checkpoint, '--rate', '15', '--concurrency', '1'])],
    {
      cwd: REPO,
      // As the helpers' children get it: none of this process's settings, the target's database.
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(MARGINALIA_|NODE_TEST|DATABASE_URL)/.test(k))),
        ...db.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 200 && !existsSync(checkpoint); i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGINT');
  assert.equal(await exited, 130, stderr);
  assert.match(stderr, /interrupted; run the same command again to resume from /);
  assert.ok(existsSync(checkpoint), 'the checkpoint was written before the interruption');
  const resumed = await cliInBackground(importArgs(['--checkpoint', checkpoint, '--rate', '1000']), db.env);
  assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
  assert.match(resumed.stdout, /^Resuming from /m);
  assert.match(resumed.stdout, /All 9 documents have the same counts on both sides\./);
  const target = await startServer({ env: db.env });
  servers.push(target);
  assert.equal(await reads(target.url, here), expected);
  assert.deepEqual(await groupReads(target.url, here), expectedGroups);
  // A thread here that the source does not have: the comparison names its document, and the exit is 1.
  await ok(
    '/v1/commentannotations/add',
    {
      organizationId: 'globex',
      documentId: 'plan',
      commentAnnotations: [{ annotationId: 'extra', commentData: [{ commentText: 'x', from: { userId: 'ann' } }] }],
    },
    here,
    target.url,
  );
  await stopServer(target);
  const differs = await cliInBackground(importArgs(['--checkpoint', checkpoint, '--rate', '1000']), db.env);
  assert.equal(differs.code, 1, differs.stdout);
  assert.match(differs.stdout, /^globex\/plan {2}(\d+)\/(\d+)\/(\d+) {2}\d+\/\d+\/\d+ {2}DIFFERS$/m, differs.stderr);
  assert.match(differs.stdout, /^1 of 9 documents differ: globex\/plan$/m);
  assert.match(differs.stderr, /The counts differ for 1 document\(s\): globex\/plan/);
});

test('--dry-run reads and counts the organizations --org names, and writes nothing', async () => {
  const db = freshDatabase('sqlite');
  after(() => db.drop());
  const here = createKey(db.env, 'here');
  const counted = cli(importArgs(['--dry-run', '--rate', '1000', '--org', 'acme', '--org', 'initech']), db.env);
  assert.equal(counted.code, 0, counted.stderr);
  assert.match(counted.stdout, /^Dry run: counted 2 organizations, 4 folders, 8 users, 4 groups, 6 documents/m);
  assert.doesNotMatch(counted.stdout, /globex/);
  assert.match(counted.stdout, /^acme\/spec {2}\d+\/\d+\/\d+ threads\/comments\/unread$/m);
  const listed = cli(['orgs', 'list', '--tenant', here.apiKey], db.env);
  assert.deepEqual(JSON.parse(listed.stdout), []);
});

test('a source without organizations/usergroups/get (404) is copied without groups, said once on stderr', async () => {
  // The source behind a proxy that answers the groups read as a server without the extension does: 404.
  const proxy = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', async () => {
      if (/\/organizations\/usergroups\/get$/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { status: 'NOT_FOUND', message: 'Route not found' } }));
        return;
      }
      const headers = Object.fromEntries(
        ['content-type', 'x-service-api-key', 'x-service-auth-token'].map((h) => [h, String(req.headers[h] ?? '')]),
      );
      const got = await fetch(source.url + (req.url ?? ''), { method: 'POST', headers, body });
      res.writeHead(got.status, { 'content-type': got.headers.get('content-type') ?? 'application/json' });
      res.end(await got.text());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  after(() => proxy.close());
  const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const db = freshDatabase('sqlite');
  after(() => db.drop());
  const here = createKey(db.env, 'here');
  const args = ['import', '--from', proxied, '--api-key', sourceCreds.apiKey, '--auth-token', sourceCreds.authToken];
  const imported = await cliInBackground(
    [...args, '--checkpoint', join(dir, 'no-groups.checkpoint.json'), '--rate', '1000'],
    db.env,
  );
  assert.equal(imported.code, 0, imported.stderr + imported.stdout);
  const warnings = imported.stderr.split('\n').filter((l) => /user groups not copied/.test(l));
  assert.equal(warnings.length, 1, imported.stderr);
  assert.match(warnings[0]!, /has no \/v1\/organizations\/usergroups\/get \(404\)/);
  assert.doesNotMatch(imported.stdout, /groups/);
  assert.match(imported.stdout, /All 9 documents have the same counts on both sides\./);
  const target = await startServer({ env: db.env });
  servers.push(target);
  assert.equal(await reads(target.url, here), expected, 'everything but the groups came over');
  for (const organizationId of ORGS)
    assert.deepEqual((await ok('/v1/organizations/usergroups/get', { organizationId }, here, target.url)).data, []);
  await stopServer(target);
});

test('a refused key is said as such, and exits 1', () => {
  const db = freshDatabase('sqlite');
  after(() => db.drop());
  createKey(db.env, 'here');
  const refused = cli(['import', '--from', source.url, '--api-key', 'mk_nope', '--auth-token', 'mt_nope', '--dry-run'], db.env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /refused the API key or auth token \(401/);
});

test('import --help says how; a missing credential or a bad URL is wrong usage (exit 2)', () => {
  const help = cli(['import', '--help'], sourceDb.env);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: marginalia import --from <base-url> --api-key <key> --auth-token <token>/);
  const usage = cli(['import', '--from', source.url, '--api-key', 'k'], sourceDb.env);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /usage: marginalia import --from/);
  const bad = cli(['import', '--from', 'file:///etc/passwd', '--api-key', 'k', '--auth-token', 't'], sourceDb.env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--from needs an http or https URL/);
});
