// How a write's event becomes an activity (docs/decisions.md, "Activities"): the feature, the action type, the
// acting user the data names (else the server), the entity, and the data kept as entityData; and how an
// activity is shown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activityJson, activityOfEvent, mutedActionTypes, SERVER_ACTOR } from '../../src/domain/activities.js';

const of = (type: string, data: unknown, documentId: string | null = 'doc-1') =>
  activityOfEvent({ type, organizationId: 'org-1', documentId, data: JSON.stringify(data) });

test('comment events: the comment feature, their author, their thread and comment', () => {
  const a = of('comment.add', { annotationId: 'ann-1', commentId: 7, from: { userId: 'bob', name: 'Bob' } });
  assert.deepEqual([a.featureType, a.actionType, a.actorId, a.targetEntityId], ['comment', 'comment.add', 'bob', 'ann-1']);
  assert.deepEqual(JSON.parse(a.body), {
    actionUser: { userId: 'bob', name: 'Bob' },
    targetSubEntityId: '7',
    entityData: { annotationId: 'ann-1', commentId: 7, from: { userId: 'bob', name: 'Bob' } },
  });
  const read = of('comment_annotation.read', { userId: 'carol', annotationIds: ['a', 'b'] });
  assert.deepEqual([read.actorId, read.targetEntityId], ['carol', null]);
  const deleted = of('comment_annotation.delete', { annotationId: 'ann-2' });
  assert.deepEqual([deleted.actorId, deleted.targetEntityId], [SERVER_ACTOR.userId, 'ann-2']);
});

test('other events: the custom feature, the server as actor unless the data names one, the object as entity', () => {
  const cases: [string, unknown, string | null, string | null][] = [
    ['notification.add', { id: 'n1', actionUser: { userId: 'dan' } }, 'dan', 'n1'],
    ['notification.delete', { notificationId: 'n2' }, SERVER_ACTOR.userId, 'n2'],
    ['notification.read', { userId: 'erin', notificationIds: ['n1'] }, 'erin', null],
    ['user.add', { userId: 'u1', name: 'U' }, SERVER_ACTOR.userId, 'u1'],
    ['organization.update', { id: 'x' }, SERVER_ACTOR.userId, 'org-1'],
    ['organization.usergroup_add', { organizationUserGroupId: 'g1' }, SERVER_ACTOR.userId, 'g1'],
    ['document.delete', { documentId: 'doc-9' }, SERVER_ACTOR.userId, 'doc-9'],
    ['document.update', { name: 'no id' }, SERVER_ACTOR.userId, 'doc-1'],
    ['folder.delete', { folderId: 'f1' }, SERVER_ACTOR.userId, 'f1'],
    ['livestate.broadcast', { liveStateDataId: 'ls' }, SERVER_ACTOR.userId, 'ls'],
  ];
  for (const [type, data, actor, target] of cases) {
    const a = of(type, data);
    assert.deepEqual([a.featureType, a.actionType, a.actorId, a.targetEntityId], ['custom', type, actor, target], type);
  }
});

test('workflow events: the custom feature, the server, the execution as entity and its step as sub-entity', () => {
  const step = of('workflow.step_completed', { executionId: 'exec_1_ab', stepId: 'step_2', data: { decision: 'approve' } });
  assert.deepEqual([step.featureType, step.actorId, step.targetEntityId], ['custom', SERVER_ACTOR.userId, 'exec_1_ab']);
  assert.equal(JSON.parse(step.body).targetSubEntityId, 'step_2');
  const run = of('workflow.execution_dispatched', { executionId: 'exec_1_ab', stepId: null, data: {} }, null);
  assert.deepEqual([run.targetEntityId, JSON.parse(run.body).targetSubEntityId], ['exec_1_ab', undefined]);
});

test('data that is not an object is kept as entityData, with the server as actor', () => {
  const a = of('user.delete', [1, 2]);
  assert.deepEqual(JSON.parse(a.body), { actionUser: SERVER_ACTOR, entityData: [1, 2] });
});

test('shown: members in order, the reader key in metadata, immutable only when set', () => {
  const row = {
    ...of('comment.add', { annotationId: 'a', from: { userId: 'u' } }),
    activityId: 'act-1',
    createdAt: 5,
    immutable: false,
  };
  const shown = JSON.parse(activityJson(row, 'key-1'));
  assert.deepEqual(Object.keys(shown), [
    'id',
    'featureType',
    'actionType',
    'targetEntityId',
    'actionUser',
    'entityData',
    'metadata',
    'timestamp',
  ]);
  assert.deepEqual(shown.metadata, { apiKey: 'key-1', documentId: 'doc-1', organizationId: 'org-1' });
  assert.equal(JSON.parse(activityJson({ ...row, immutable: true, body: '{}' }, 'k')).immutable, true);
});

test('triggers set false in any group are the muted action types, each once', () => {
  assert.deepEqual(
    mutedActionTypes({ comment: { 'comment.add': false, 'comment.update': true }, custom: { 'comment.add': false, x: false } }),
    ['comment.add', 'x'],
  );
  assert.deepEqual(mutedActionTypes(null), []);
});
