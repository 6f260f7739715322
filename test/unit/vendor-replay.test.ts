// The comparison the replay of the original service's examples relies on (helpers/vendor-replay.ts):
// each rule it checks finds a difference when the answer breaks it, so a green replay means something.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareAnswer, type DocumentedAnswer, substituted, unavailableAnswer } from '../helpers/vendor-replay.js';

const page = (body: Record<string, any>): DocumentedAnswer => ({ kind: 'success', name: 'Success Response', body });
const ok = (data: unknown, extra: Record<string, unknown> = {}) => ({
  status: 200,
  json: { result: { status: 'success', message: 'Done.', data, ...extra } },
});
const documented = (data: unknown, extra: Record<string, unknown> = {}) =>
  page({ result: { status: 'success', message: 'Done.', data, ...extra } });
const differences = (...args: Parameters<typeof compareAnswer>) => compareAnswer(...args).differences;

test('the envelope: HTTP status, status, message and the kind of data are compared exactly', () => {
  const doc = documented({ a: 'x' });
  assert.deepEqual(differences({ data: {} }, doc, ok({ a: 'y', more: 1 })), [], 'values by type; members added are fine');
  assert.equal(differences({ data: {} }, doc, { ...ok({ a: 'x' }), status: 201 }).length, 1);
  assert.equal(differences({ data: {} }, doc, ok({ a: 'x' }, { message: 'Other.' })).length, 1);
  assert.equal(differences({ data: {} }, doc, ok([{ a: 'x' }])).length, 1, 'an array where the page has an object');
  assert.equal(differences({ data: {} }, documented(null), ok({})).length, 1, 'null is a kind');
  const noData = page({ result: { status: 'success', message: 'Done.' } });
  assert.deepEqual(
    differences({ data: {} }, noData, { status: 200, json: { result: { status: 'success', message: 'Done.' } } }),
    [],
  );
  assert.equal(differences({ data: {} }, noData, ok(null)).length, 1, 'data where the page shows none');
  assert.equal(differences({ data: {} }, documented({}, { nextPageToken: 't' }), ok({})).length, 1, 'a member beside data');
});

test('the 202 body: its members at the top, and no result wrapper', () => {
  const doc = page({ status: 'success', message: 'Started.', data: { jobId: 'j', tasksCount: 5 }, statusCode: 202 });
  const top = { status: 'success', message: 'Started.', data: { jobId: 'k', tasksCount: 1 }, statusCode: 202 };
  assert.deepEqual(differences({ data: {} }, doc, { status: 202, json: top }), []);
  assert.ok(differences({ data: {} }, doc, { status: 200, json: top }).length >= 1);
  assert.ok(differences({ data: {} }, doc, { status: 202, json: { result: top } }).length >= 1);
});

test('documented members must be there with their type, at any depth; arrays by their first documented entry', () => {
  const doc = documented([{ id: 'n', from: { userId: 'u', name: 'x' }, at: 1 }, null]);
  assert.deepEqual(differences({ data: {} }, doc, ok([{ id: 'a', from: { userId: 'b', name: 'c' }, at: 2 }])), []);
  assert.equal(differences({ data: {} }, doc, ok([{ id: 'a', from: { userId: 'b' }, at: 2 }])).length, 1, 'a missing member');
  assert.equal(differences({ data: {} }, doc, ok([{ id: 'a', from: { userId: 'b', name: 'c' }, at: '2' }])).length, 1);
  assert.equal(differences({ data: {} }, doc, ok([])).length, 1, 'no entry where the page shows some');
  const byId = { data: { annotationIds: ['a', 'b'] } };
  assert.deepEqual(differences(byId, doc, ok([{ id: 'a', from: { userId: 'b', name: 'c' }, at: 2 }, null])), []);
  assert.equal(differences(byId, doc, ok([null, null])).length, 1, 'asked by id: entry by entry');
  const kept = compareAnswer({ data: {} }, documented([{ at: 'text' }]), ok([{ at: 5 }]), { kept: ['data[].at'] });
  assert.deepEqual([kept.differences, kept.kept], [[], ['data[].at']]);
});

test("per-item entries: values as documented, the page's successes required, other entries of a documented kind", () => {
  const doc = documented({
    a: { success: true, id: 'a', message: 'Deleted' },
    b: { success: false, id: 'b', message: 'Not found' },
  });
  const named = { data: { ids: ['a', 'b'] } };
  const good = { a: { success: true, id: 'a', message: 'Deleted' }, b: { success: false, id: 'b', message: 'Not found' } };
  assert.deepEqual(differences(named, doc, ok(good)), []);
  assert.equal(differences(named, doc, ok({ ...good, b: { ...good.b, message: 'Gone' } })).length, 1, 'a message');
  assert.equal(differences(named, doc, ok({ a: good.a })).length, 1, 'an entry the request names is missing');
  assert.deepEqual(differences({ data: {} }, doc, ok({ a: good.a })), [], 'not named: the failure cannot be asked for');
  assert.deepEqual(differences({ data: {} }, doc, ok({ a: good.a, c: { success: true, id: 'c', message: 'Deleted' } })), []);
  assert.equal(
    differences({ data: {} }, doc, ok({ a: good.a, c: { success: true, id: 'a', message: 'Deleted' } })).length,
    1,
    "another entry's id names its own key",
  );
  assert.equal(
    differences({ data: {} }, documented({ a: { success: true, id: '0123456789012345' } }), ok({ a: { success: true, id: 'x' } }))
      .length,
    0,
  );
  const mapped = compareAnswer(
    { data: { ids: ['mine'] } },
    documented({ page: { success: true } }),
    ok({ mine: { success: true } }),
    {
      keyMap: { page: 'mine' },
    },
  );
  assert.deepEqual(mapped.differences, []);
});

test('placeholders are replaced wherever they are, and nothing else is', () => {
  assert.deepEqual(substituted({ data: { k: 'YOUR_KEY', list: ['YOUR_KEY', 'x'], n: 1 } }, { YOUR_KEY: 'mk_1' }), {
    data: { k: 'mk_1', list: ['mk_1', 'x'], n: 1 },
  });
});

test("a page not available here: 501 and the exact body naming its path, whatever the page's own answer", () => {
  const x = { unavailable: '/v2/agents/create' };
  const doc = documented({ agentId: 'a1' });
  assert.deepEqual(differences({ data: {} }, doc, { status: 501, json: unavailableAnswer('/v2/agents/create') }, x), []);
  assert.equal(differences({ data: {} }, doc, { status: 404, json: unavailableAnswer('/v2/agents/create') }, x).length, 1);
  assert.equal(differences({ data: {} }, doc, { status: 501, json: unavailableAnswer('/v2/agents/get') }, x).length, 1);
  const more = { error: { ...unavailableAnswer('/v2/agents/create').error, details: {} } };
  assert.equal(differences({ data: {} }, doc, { status: 501, json: more }, x).length, 1, 'nothing more in the envelope');
  assert.equal(differences({ data: {} }, doc, ok({ agentId: 'a1' }), x).length, 2, "the page's own answer is not it");
});

test('a result the page prints without status/message (workflow pages): its members compared as data, exactly when asked', () => {
  const doc = page({ result: { definitionId: 'd', version: 1, status: 'active', nodes: [{ nodeId: 'a' }], createdAt: 1 } });
  const answer = (result: unknown) => ({ status: 200, json: { result } });
  const same = { definitionId: 'd', version: 1, status: 'active', nodes: [{ nodeId: 'a' }], createdAt: 9, extra: true };
  const x = { exact: true, loose: ['createdAt'] };
  assert.deepEqual(differences({ data: {} }, doc, answer(same), x), [], 'loose members by kind; members added are fine');
  assert.equal(differences({ data: {} }, doc, answer({ ...same, version: 2 }), x).length, 1, 'a value');
  assert.equal(
    differences({ data: {} }, doc, answer({ ...same, nodes: [{ nodeId: 'a' }, { nodeId: 'b' }] }), x).length,
    1,
    'an entry more',
  );
  assert.equal(differences({ data: {} }, doc, answer({ ...same, nodes: [{ nodeId: 'b' }] }), x).length, 1, 'a value in an entry');
  assert.equal(
    differences({ data: {} }, doc, answer({ ...same, createdAt: '9' }), x).length,
    1,
    'a loose member of another kind',
  );
  assert.equal(differences({ data: {} }, doc, answer({ ...same, version: undefined }), x).length, 1, 'a member missing');
  assert.deepEqual(differences({ data: {} }, doc, answer({ ...same, version: 2 })), [], 'without exact: by shape');
  assert.equal(differences({ data: {} }, doc, ok(same)).length > 0, true, 'a status/message envelope the page does not show');
});
