// The typed client (client/) against the real server: every method, typed results, typed errors with
// status and message, retries of 429 that wait what Retry-After asks, and of 503 with backoff.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Marginalia, MarginaliaError } from '../../client/src/index.js';
import { cli, startServer, stopServer, type ServerProcess } from '../helpers/server-process.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';

const creds = { apiKey: 'client-test-key', authToken: 'client-test-token-0123456789' };

describe('the typed client against the real server', () => {
  let db: FreshDatabase;
  let limitedDb: FreshDatabase;
  let server: ServerProcess;
  /** The same service at a rate of 2/s (burst 4), so the 429 path can be reached on purpose. */
  let limited: ServerProcess;
  let api: Marginalia;

  before(async () => {
    db = freshDatabase();
    limitedDb = freshDatabase();
    const env = { MARGINALIA_API_KEY: creds.apiKey, MARGINALIA_AUTH_TOKEN: creds.authToken };
    // The operations run at the default rate, which they never reach, so none of them waits for a bucket;
    // the limited server is fresh for the one test that spends its bucket.
    [server, limited] = await Promise.all([
      startServer({ env: { ...db.env, ...env } }),
      startServer({ env: { ...limitedDb.env, ...env, MARGINALIA_RATE_LIMIT: '2' } }),
    ]);
    api = new Marginalia({ baseUrl: `${server.url}/`, ...creds });
  });
  after(async () => {
    await Promise.all([server && stopServer(server), limited && stopServer(limited)]);
    await Promise.all([db?.drop(), limitedDb?.drop()]);
  });

  test('every thread operation, with typed results', async () => {
    const where = { organizationId: 'o10', documentId: 'd' };
    await api.comments.addAnnotations({
      ...where,
      commentAnnotations: ['t1', 't2', 't3'].map((annotationId, i) => ({
        annotationId,
        createdAt: 1_600_000_000_000 + i,
        commentData: [{ commentText: annotationId, from: { userId: 'u1' } }],
      })),
    });
    const page = await api.comments.getAnnotations({ ...where, pageSize: 2 });
    assert.deepEqual(
      page.data.map((t) => t?.annotationId),
      ['t3', 't2'],
    );
    assert.equal(typeof page.pageToken, 'string');
    const all = await api.comments.allAnnotations({ ...where, pageSize: 2 });
    assert.deepEqual(
      all.map((t) => t.annotationId),
      ['t3', 't2', 't1'],
    );
    const resolved = await api.comments.updateAnnotations({
      ...where,
      annotationIds: ['t1'],
      updatedData: { status: { id: 'RESOLVED' } },
    });
    assert.equal(resolved.data.t1!.success, true);
    const edited = await api.comments.update({
      ...where,
      annotationId: 't1',
      commentIds: [1],
      updatedData: { commentText: 'edited' },
    });
    assert.equal(edited.data['1']!.id, 1);
    assert.deepEqual((await api.comments.countAnnotations({ ...where, documentIds: ['d'], userId: 'u2' })).data, {
      d: { total: 3, unread: 3 },
    });
    assert.deepEqual((await api.comments.markRead({ ...where, userId: 'u2', annotationIds: ['t1', 't2'] })).data, { read: 2 });
    assert.equal((await api.comments.delete({ ...where, annotationId: 't2' })).data['1']!.success, true);
    assert.equal((await api.comments.deleteAnnotations({ ...where, annotationIds: ['t3'] })).data.t3!.success, true);
    const [t1, t2, t3] = (await api.comments.getAnnotations({ ...where, annotationIds: ['t1', 't2', 't3'] })).data;
    assert.deepEqual(
      [t1?.status, t1?.comments[0]?.commentText, t1?.comments[0]?.status],
      [{ id: 'RESOLVED' }, 'edited', 'updated'],
    );
    assert.deepEqual([t2?.comments, t2?.from, t3], [[], null, null]);
  });

  test('/v2 through client.v2: each operation by name, typed by its /v2 shape', async () => {
    const where = { organizationId: 'o-v2', documentId: 'd' };
    await api.v2.annotationsAdd({
      ...where,
      commentAnnotations: [
        { annotationId: 'v2-a', type: 'suggestion', commentData: [{ commentText: 'a', from: { userId: 'u1', name: 'Ann' } }] },
        { annotationId: 'v2-b', commentData: [{ commentText: 'b', from: { userId: 'u2' } }] },
      ],
    });
    const oldest = await api.v2.annotationsGet({ organizationId: 'o-v2', order: 'asc', pageSize: 1 });
    assert.equal(oldest.message, 'Annotation(s) fetched successfully.');
    assert.equal(typeof oldest.nextPageToken, 'string', '/v2 names the token nextPageToken');
    const [first] = oldest.data as { annotationId: string; comments: { from: { initial: string } }[] }[];
    assert.equal(first!.comments[0]!.from.initial, 'A');
    await api.v2.usersAdd({ organizationId: 'o-v2', users: [{ userId: 'u1' }, { userId: 'u2' }] });
    const users = await api.v2.usersGet({ organizationId: 'o-v2', pageSize: 1 });
    assert.equal(typeof users.nextPageToken, 'string');
    const token = await api.v2.authGenerateToken({
      userId: 'u1',
      userProperties: { name: 'Ann', email: 'ann@example.com' },
      permissions: { resources: [{ type: 'organization', id: 'o-v2' }] },
    });
    assert.equal(typeof token.data.token, 'string');
    await assert.rejects(api.v2.annotationsGet({ organizationId: 'o-v2', order: 'sideways' as 'asc' }), (e: MarginaliaError) => {
      assert.equal(e.status, 'INVALID_ARGUMENT');
      return true;
    });
  });

  test('every operation, with typed results', async () => {
    const users = await api.users.add({ organizationId: 'o', users: [{ userId: 'u1', name: 'Una' }] });
    assert.match(users.data.u1!.id, /^[0-9a-f]{32}$/);
    const threads = await api.comments.addAnnotations({
      organizationId: 'o',
      documentId: 'd',
      commentAnnotations: [{ annotationId: 'a', commentData: [{ commentText: 'first', from: { userId: 'u1' } }] }],
    });
    assert.deepEqual(threads.data.a!.commentIds, [1]);
    assert.deepEqual(
      (
        await api.comments.add({
          organizationId: 'o',
          documentId: 'd',
          annotationId: 'a',
          commentData: [{ commentText: 'second', from: { userId: 'u2' } }],
        })
      ).data,
      [2],
    );
    const thread = await api.comments.get({ organizationId: 'o', documentId: 'd', annotationId: 'a', commentIds: [2, 9] });
    assert.equal(thread.data[0]!.commentText, 'second');
    assert.equal(thread.data[1], null);
    const added = await api.notifications.add({
      organizationId: 'o',
      documentId: 'd',
      notificationId: 'n1',
      actionUser: { userId: 'u1' },
      displayHeadlineMessageTemplate: 'hi',
      notifyUsers: [{ userId: 'u2' }],
    });
    assert.equal(added.data.id, 'n1');
    await api.notifications.add({
      organizationId: 'o',
      documentId: 'd',
      notificationId: 'n2',
      actionUser: { userId: 'u1' },
      displayHeadlineMessageTemplate: 'hi',
      notifyUsers: [{ userId: 'u2' }],
    });
    const page = await api.notifications.get({ organizationId: 'o', userId: 'u2', pageSize: 1 });
    assert.equal(page.data.length, 1);
    assert.equal(typeof page.pageToken, 'string');
    assert.deepEqual((await api.notifications.all({ organizationId: 'o', userId: 'u2', pageSize: 1 })).map((n) => n.id).sort(), [
      'n1',
      'n2',
    ]);
    assert.equal((await api.users.update({ organizationId: 'o', users: [{ userId: 'nobody' }] })).data.nobody!.success, false);
  });

  test('every notification operation, with typed results', async () => {
    const org = { organizationId: 'o11' };
    await api.users.add({ ...org, documentId: 'd', users: ['u1', 'u2', 'u3'].map((userId) => ({ userId })) });
    const base = { ...org, actionUser: { userId: 'u1' }, displayHeadlineMessageTemplate: 'hi' };
    await api.notifications.add({ ...base, documentId: 'd', notificationId: 'n1', notifyUsers: [{ userId: 'u2' }] });
    // No notifyUsers: the whole organization (notifyAll defaults to true).
    await api.notifications.add({ ...base, notificationId: 'n2' });
    assert.deepEqual((await api.notifications.count({ ...org, userId: 'u2' })).data, { total: 2, unread: 2 });
    assert.deepEqual((await api.notifications.markRead({ ...org, userId: 'u2', notificationIds: ['n2'] })).data, { read: 1 });
    assert.deepEqual((await api.notifications.markRead({ ...org, userId: 'u2', notificationIds: ['n2'] })).data, { read: 0 });
    const read = await api.notifications.get({ ...org, userId: 'u2', unread: false });
    assert.deepEqual(
      read.data.map((n) => [n.id, n.notifyUsersByUserId]),
      [['n2', { u2: false }]],
    );
    const updated = await api.notifications.update({
      ...org,
      notifications: [
        { id: 'n1', readByUserIds: ['u2'], displayBodyMessage: 'changed' },
        { id: 'n9', readByUserIds: ['u2'] },
      ],
    });
    assert.deepEqual(updated.data, {
      n1: { success: true, message: 'Notification updated.' },
      n9: { success: false, message: 'Failed to update notification.' },
    });
    assert.deepEqual((await api.notifications.count({ ...org, userId: 'u2' })).data, { total: 2, unread: 0 });
    const never = await api.notifications.getConfig({ ...org, documentIds: ['d'], userId: 'u3' });
    assert.deepEqual(never.data, [
      { config: { inbox: 'MINE', email: 'MINE' }, metadata: { ...org, documentId: 'd', userId: 'u3', apiKey: creds.apiKey } },
    ]);
    const set = await api.notifications.setConfig({ ...org, documentIds: ['d'], userIds: ['u3'], config: { inbox: 'ALL' } });
    assert.deepEqual(set.data, {
      u3: { success: true, userId: 'u3', documentId: 'd', message: 'User config set successfully.' },
    });
    assert.deepEqual((await api.notifications.getConfig({ ...org, documentIds: ['d'], userId: 'u3' })).data[0]!.config, {
      inbox: 'ALL',
      email: 'MINE',
    });
    // A comment with triggerNotification: u2 is mentioned, u3 (a member set to ALL) hears of it too.
    await api.comments.addAnnotations({
      ...org,
      documentId: 'd',
      triggerNotification: true,
      commentAnnotations: [
        {
          annotationId: 't',
          commentData: [{ commentText: '@u2 look', from: { userId: 'u1' }, taggedUserContacts: [{ userId: 'u2' }] }],
        },
      ],
    });
    const [mention] = (await api.notifications.get({ ...org, userId: 'u2', unread: true })).data;
    assert.deepEqual(
      [mention?.notificationSource, mention?.displayHeadlineMessageTemplate, mention?.notificationSourceData],
      ['comment', '{actionUser} mentioned you', { annotationId: 't', commentId: 1, documentId: 'd' }],
    );
    const [member] = (await api.notifications.get({ ...org, userId: 'u3', documentId: 'd' })).data;
    assert.equal(member?.displayHeadlineMessageTemplate, '{actionUser} commented on a document');
    const deleted = await api.notifications.delete({ ...org, notificationIds: ['n1', 'n9'] });
    assert.deepEqual(deleted.data, {
      n1: { success: true, message: 'Notification deleted.' },
      n9: { success: false, message: 'Failed to delete notification.' },
    });
    const byDocument = await api.notifications.delete({ ...org, documentId: 'd' });
    assert.deepEqual(Object.keys(byDocument.data).sort(), [mention!.id, member!.id].sort());
    assert.deepEqual((await api.notifications.count({ ...org, userId: 'u2' })).data, { total: 1, unread: 0 });
  });

  test('the organization operations, with typed results', async () => {
    const added = await api.organizations.add({
      organizations: [{ organizationId: 'o12-a', organizationName: 'A' }, { organizationId: 'o12-b' }],
    });
    assert.match(added.data['o12-a']!.id, /^[0-9a-f]{32}$/);
    await api.users.add({ organizationId: 'o12-c', users: [{ userId: 'u' }] });
    const renamed = await api.organizations.update({ organizations: [{ organizationId: 'o12-b', organizationName: 'B' }] });
    assert.deepEqual(renamed.data['o12-b'], { success: true, id: added.data['o12-b']!.id, message: 'Updated Successfully' });
    const page = await api.organizations.get({ organizationIds: ['o12-a', 'o12-b', 'o12-c'], pageSize: 2 });
    assert.ok(page.pageToken, 'a third remains');
    const all = await api.organizations.all({ organizationIds: ['o12-a', 'o12-b', 'o12-c', 'o12-none'], pageSize: 2 });
    assert.deepEqual(
      all.map((o) => [o.id, o.organizationName, o.disabled]),
      [
        ['o12-a', 'A', false],
        ['o12-b', 'B', false],
        ['o12-c', '', false],
      ],
    );
  });

  test('the rest through the client: disable state, documents, folders, members, groups, personal data, delete', async () => {
    const org = 'o12-life';
    await api.folders.add({ organizationId: org, folders: [{ folderId: 'f', folderName: 'F' }] });
    await api.documents.add({ organizationId: org, folderId: 'f', documents: [{ documentId: 'd', documentName: 'D' }] });
    const docs = await api.documents.all({ organizationId: org, folderId: 'f' });
    assert.deepEqual(
      docs.map((d) => [d.id, d.documentName, d.folderId]),
      [['d', 'D', 'f']],
    );
    await api.users.add({ organizationId: org, documentId: 'd', users: [{ userId: 'u', name: 'U' }, { userId: 'v' }] });
    await api.userGroups.add({ organizationId: org, organizationUserGroups: [{ groupId: 'g', groupName: 'G' }] });
    await api.userGroups.addUsers({ organizationId: org, organizationUserGroupId: 'g', userIds: ['u'] });
    const grouped = await api.users.all({ organizationId: org, organizationUserGroupIds: ['g'] });
    assert.deepEqual(
      grouped.map((m) => [m.userId, m.name]),
      [['u', 'U']],
    );
    await api.comments.addAnnotations({
      organizationId: org,
      documentId: 'd',
      commentAnnotations: [{ annotationId: 't', commentData: [{ commentText: 'mine', from: { userId: 'u' } }] }],
    });
    const mine = await api.personalData.get({ organizationId: org, userId: 'u' });
    assert.deepEqual(
      mine.data.comments.map((c) => c.commentText),
      ['mine'],
    );
    const off = await api.documents.setDisabled({ organizationId: org, documentIds: ['d'], disabled: true });
    assert.equal(off.data.d!.disabled, true);
    await assert.rejects(
      api.comments.addAnnotations({
        organizationId: org,
        documentId: 'd',
        commentAnnotations: [{ commentData: [{ commentText: 'x', from: { userId: 'u' } }] }],
      }),
      (err: MarginaliaError) => err.status === 'PERMISSION_DENIED' && err.message === 'Document d is disabled.',
    );
    const job = await api.personalData.delete({ userIds: ['u'], organizationIds: [org] });
    assert.deepEqual([job.status, job.statusCode], ['success', 202], 'the 202 body as the original service shows it');
    const status = await api.personalData.status({ jobId: job.data.jobId });
    assert.equal(status.data.isDeleteCompleted, true);
    assert.deepEqual(
      (await api.users.all({ organizationId: org })).map((m) => m.userId),
      ['v'],
    );
    const removed = await api.users.delete({ organizationId: org, userIds: ['v'] });
    assert.equal(removed.data.v!.success, true);
    const disabled = await api.organizations.setDisabled({ organizationIds: [org], disabled: true });
    assert.equal(disabled.data[org]!.disabled, true);
    const gone = await api.organizations.delete({ organizationIds: [org] });
    assert.deepEqual(gone.data[org], { success: true, id: disabled.data[org]!.id, message: 'Deleted Successfully' });
    assert.deepEqual(await api.folders.get({ organizationId: org }).then((r) => r.data), []);
  });

  test("the tenant's allowed domains: typed answers, and the documented partial answer as an error with details", async () => {
    const added = await api.workspace.addDomains({ domains: ['https://www.google.com', 'https://*.firebase.com'] });
    assert.deepEqual(added.data.domainsAdded, ['google.com', '*.firebase.com']);
    await assert.rejects(api.workspace.addDomains({ domains: ['velt.dev', 'google.com'] }), (err: MarginaliaError) => {
      assert.equal(err.status, 'INTERNAL');
      assert.equal(err.httpStatus, 500);
      assert.equal(err.message, 'Domain(s) added successfully to allowed domains. Skipped existing domains.');
      assert.deepEqual(err.details, { domainsAdded: ['velt.dev'], skippedDomains: ['google.com'] });
      return true;
    });
    const removed = await api.workspace.deleteDomains({ domains: ['google.com', '*.firebase.com', 'velt.dev'] });
    assert.deepEqual(removed.data.domainsRemoved, ['google.com', '*.firebase.com', 'velt.dev']);
    await assert.rejects(
      api.workspace.deleteDomains({ domains: ['google.com'] }),
      (err: MarginaliaError) =>
        err.status === 'INTERNAL' && JSON.stringify(err.details) === '{"domainsRemoved":[],"skippedDomains":["google.com"]}',
    );
  });

  test("workspace keys through client.v2: the workspace's credentials on its pages, a new key's on its own", async () => {
    await assert.rejects(
      api.v2.apiKeysGet({}),
      (e: unknown) => e instanceof MarginaliaError && e.status === 'UNAUTHENTICATED' && /workspaceId/.test(e.message),
    );
    const workspace = JSON.parse(cli(['workspace', 'credentials'], db.env).stdout);
    const admin = new Marginalia({ baseUrl: server.url, ...creds, ...workspace });
    const made = await admin.v2.apiKeyCreate({ ownerEmail: 'owner@example.com', type: 'testing', createAuthToken: true });
    assert.equal(made.message, 'API key created successfully.');
    const listed = await admin.v2.apiKeysGet({ apiKeys: [made.data.apiKey] });
    assert.deepEqual(
      listed.data.map((k) => [k.id, k.apiKeyName, k.type]),
      [[made.data.apiKey, 'Testing Key', 'testing']],
    );
    const key = new Marginalia({ baseUrl: server.url, apiKey: made.data.apiKey, authToken: made.data.authToken! });
    const config = await key.v2.apiKeyConfigUpdate({ defaultDocumentAccessType: 'public' });
    assert.equal(config.data.defaultDocumentAccessType, 'public');
    assert.equal((await key.v2.apiKeyConfigGet({})).data.ownerEmail, 'owner@example.com');
  });

  test('the location operations through the client, in a document without an organization', async () => {
    const documentId = 'loc-doc';
    await api.comments.addAnnotations({
      documentId,
      commentAnnotations: [
        {
          annotationId: 'at',
          location: { id: 'scene', name: 'Old' },
          commentData: [{ commentText: 'x', from: { userId: 'u' } }],
        },
      ],
    });
    const moved = await api.documents.moveLocation({
      documentId,
      migrate: { oldLocation: { id: 'scene' }, newLocation: { id: 'scene', name: 'New' } },
      merge: true,
    });
    assert.deepEqual([moved.message, moved.data], ['Location updated.', null]);
    const [thread] = await api.comments.allAnnotations({ documentId });
    assert.deepEqual(thread?.location, { id: 'scene', name: 'New' });
    const gone = await api.documents.deleteLocationData({ documentId, location: { id: 'scene' } });
    assert.equal(gone.message, 'Data deleted successfully.');
    assert.deepEqual(await api.comments.allAnnotations({ documentId }), []);
  });

  test("a document's live state through the client: broadcast (merge) and get, with typed results", async () => {
    const where = { organizationId: 'o-live', documentId: 'd' };
    const sent = await api.liveState.broadcast({ ...where, liveStateDataId: 'cursor', data: { x: 1, y: 2 } });
    assert.deepEqual(sent, { status: 'success', message: 'Event broadcasted successfully.', data: { success: true } });
    await api.liveState.broadcast({ ...where, liveStateDataId: 'cursor', data: { y: 3 }, merge: true });
    await api.liveState.broadcast({ ...where, liveStateDataId: 'aaa', data: {} });
    const got = await api.liveState.get({ ...where, liveStateDataIds: ['cursor', 'aaa', 'ghost'] });
    assert.equal(got.message, 'Live state retrieved successfully.');
    assert.deepEqual(
      got.data.map((s) => [s.liveStateDataId, s.data]),
      [
        ['aaa', {}],
        ['cursor', { x: 1, y: 3 }],
      ],
    );
    assert.ok(got.data.every((s) => Number.isInteger(s.lastUpdated)));
  });

  test('approval workflows through client.v2: the result itself, typed (no status/message on these pages)', async () => {
    const definition = await api.v2.workflowDefinitionsCreate({
      definitionId: 'client-flow',
      name: 'Client flow',
      nodes: [{ nodeId: 'draft', type: 'agent', config: { agentId: 'writer', url: 'https://x.example' } }],
      edges: [],
    });
    assert.equal(definition.version, 1);
    assert.deepEqual(definition.compiled, { forwardEdges: [], loops: [] });
    const dispatched = await api.v2.workflowExecutionsDispatch({ definitionId: 'client-flow', idempotencyKey: 'client-1' });
    assert.equal(dispatched.deduplicated, false);
    const execution = await api.v2.workflowExecutionsGet({ executionId: dispatched.executionId });
    const step = execution.steps[0]!;
    assert.equal(step.status, 'waiting');
    const recorded = await api.v2.workflowStepsRecordAgentResolution({
      executionId: dispatched.executionId,
      stepId: step.stepId,
      responseId: (step.output.responseIds as string[])[0]!,
      resolution: 'resolved',
      actorId: 'client',
    });
    assert.deepEqual(recorded, { recorded: true, aggregatorStatus: 'resolved', resumeScheduled: true });
    const events = await api.v2.workflowExecutionsGetEvents({ executionId: dispatched.executionId });
    assert.equal(events.events.at(-1)?.type, 'execution.completed');
    const nodes = [{ nodeId: 'draft', type: 'agent' as const, config: { agentId: 'writer', url: 'https://x.example' } }];
    await assert.rejects(
      api.v2.workflowDefinitionsUpdate({ definitionId: 'client-flow', name: 'x', nodes, edges: [], ifVersion: 2 }),
      (e: MarginaliaError) => e.status === 'FAILED_PRECONDITION' && e.message === 'Version conflict: expected 2, current 1',
    );
    await assert.rejects(
      api.v2.workflowDefinitionsDelete({ definitionId: 'none-such' }),
      (e: MarginaliaError) => e.status === 'NOT_FOUND' && e.httpStatus === 404,
    );
  });

  test('a 429 without Retry-After (an annotation out of commentIds) is thrown at once, saying what to do', async () => {
    let calls = 0;
    const counting = new Marginalia({
      baseUrl: server.url,
      ...creds,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    await counting.comments.addAnnotations({
      organizationId: 'o',
      documentId: 'd',
      commentAnnotations: [
        {
          annotationId: 'full',
          commentData: [{ commentId: 2147483647, commentText: 'last', from: { userId: 'u1' } }],
        },
      ],
    });
    calls = 0;
    const refused = await counting.comments
      .add({
        organizationId: 'o',
        documentId: 'd',
        annotationId: 'full',
        commentData: [{ commentText: 'x', from: { userId: 'u1' } }],
      })
      .then(
        () => assert.fail('expected RESOURCE_EXHAUSTED'),
        (e: unknown) => e,
      );
    assert.ok(refused instanceof MarginaliaError);
    assert.equal(refused.status, 'RESOURCE_EXHAUSTED');
    assert.equal(refused.httpStatus, 429);
    assert.match(refused.message, /Retrying will not help: give each new comment a free commentId/);
    assert.equal(calls, 1, 'not retried');
  });

  test('an error answer is a MarginaliaError with its status, message, HTTP status and request id', async () => {
    const notFound = await api.comments
      .add({
        organizationId: 'o',
        documentId: 'd',
        annotationId: 'missing',
        commentData: [{ commentText: 'x', from: { userId: 'u1' } }],
      })
      .then(
        () => assert.fail('expected NOT_FOUND'),
        (e: unknown) => e,
      );
    assert.ok(notFound instanceof MarginaliaError);
    assert.equal(notFound.status, 'NOT_FOUND');
    assert.equal(notFound.httpStatus, 404);
    assert.match(notFound.message, /Annotation missing does not exist/);
    assert.ok(notFound.requestId);
    const wrong = new Marginalia({ baseUrl: server.url, apiKey: creds.apiKey, authToken: 'wrong-token-wrong-token' });
    await assert.rejects(wrong.notifications.get({ organizationId: 'o', documentId: 'd' }), {
      name: 'MarginaliaError',
      status: 'UNAUTHENTICATED',
      httpStatus: 401,
    });
    await assert.rejects(
      new Marginalia({ baseUrl: 'http://127.0.0.1:1', ...creds }).users.add({ organizationId: 'o', users: [{ userId: 'x' }] }),
      { name: 'MarginaliaError', status: 'UNAVAILABLE', httpStatus: 0 },
    );
  });

  test('a 429 is retried after at least Retry-After, then succeeds; with no retries it is RESOURCE_EXHAUSTED', async () => {
    const read = (client: Marginalia) => client.notifications.get({ organizationId: 'o', documentId: 'd' });
    // Without retries, the first 429 is the caller's, as a typed error: drain the bucket until it comes.
    const once = new Marginalia({ baseUrl: limited.url, ...creds, retries: 0 });
    let refused: unknown;
    for (let i = 0; i < 10 && !refused; i++)
      refused = await read(once).then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(refused instanceof MarginaliaError, 'a 429 came once the burst was spent');
    assert.equal(refused.status, 'RESOURCE_EXHAUSTED');
    assert.equal(refused.httpStatus, 429);
    // At once (the next token is 500 ms away at 2/s), a retrying client meets a 429 with Retry-After: 1,
    // waits it out, and succeeds.
    const started = Date.now();
    const r = await read(new Marginalia({ baseUrl: limited.url, ...creds, backoffMs: 1 }));
    assert.equal(r.status, 'success');
    assert.ok(Date.now() - started >= 900, `waited ${Date.now() - started} ms: Retry-After is 1 s`);
  });
});

describe('the typed client and a 503', () => {
  let stub: Server;
  let url: string;
  let calls = 0;
  let retryAfter: string | undefined;

  // A stand-in that answers 503 twice (as a draining instance does), then succeeds: it is the
  // client's retry that is under test here, not the service.
  before(async () => {
    stub = createServer((req, res) => {
      calls++;
      req.resume();
      if (calls <= 2) {
        res.writeHead(503, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
        return res.end(JSON.stringify({ error: { status: 'UNAVAILABLE', message: 'The server is shutting down.' } }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { status: 'success', message: 'ok', data: [] } }));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
  });
  after(() => new Promise((r) => stub.close(r)));

  test('is retried with backoff until it succeeds, or reported as UNAVAILABLE when retries run out', async () => {
    const r = await new Marginalia({ baseUrl: url, ...creds, backoffMs: 5 }).notifications.get({
      organizationId: 'o',
      documentId: 'd',
    });
    assert.deepEqual(r.data, []);
    assert.equal(calls, 3, 'two 503s, then the answer');
    calls = 0;
    await assert.rejects(
      new Marginalia({ baseUrl: url, ...creds, backoffMs: 5, retries: 1 }).notifications.get({
        organizationId: 'o',
        documentId: 'd',
      }),
      { status: 'UNAVAILABLE', httpStatus: 503, message: 'The server is shutting down.' },
    );
    assert.equal(calls, 2);
  });

  const add = (client: Marginalia, notificationId?: string) =>
    client.notifications.add({
      organizationId: 'o',
      ...(notificationId ? { notificationId } : {}),
      actionUser: { userId: 'a' },
      displayHeadlineMessageTemplate: 'h',
      notifyUsers: [{ userId: 'r' }],
    });

  test('an add whose ids the service would choose is not retried on 503 (it may have landed), unless asked', async () => {
    calls = 0;
    await assert.rejects(add(new Marginalia({ baseUrl: url, ...creds, backoffMs: 5 })), {
      status: 'UNAVAILABLE',
      httpStatus: 503,
    });
    assert.equal(calls, 1, 'not retried');
    calls = 0;
    await add(new Marginalia({ baseUrl: url, ...creds, backoffMs: 5 }), 'caller-chosen');
    assert.equal(calls, 3, 'with a caller-chosen id a repeat is safe, so it is retried');
    calls = 0;
    await add(new Marginalia({ baseUrl: url, ...creds, backoffMs: 5, retryWritesOn503: true }));
    assert.equal(calls, 3, 'retryWritesOn503 opts in');
  });

  test('a Retry-After longer than maxWaitMs is thrown at once, not cut short', async () => {
    calls = 0;
    retryAfter = '120';
    try {
      const started = Date.now();
      await assert.rejects(
        new Marginalia({ baseUrl: url, ...creds, maxWaitMs: 1000 }).notifications.get({ organizationId: 'o', documentId: 'd' }),
        { status: 'UNAVAILABLE' },
      );
      assert.equal(calls, 1);
      assert.ok(Date.now() - started < 1000);
    } finally {
      retryAfter = undefined;
    }
  });
});
