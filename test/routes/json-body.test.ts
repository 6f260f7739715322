// The JSON body parser: nesting bound (at and past it), strings that look like nesting, prototype keys.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nestingDepth } from '../../src/http/json-body.js';
import { expectError, makeTestApp, PATHS, type TestApp } from '../helpers/app.js';

describe('nestingDepth', () => {
  test('counts objects and arrays, not brackets inside strings or escaped quotes', () => {
    assert.equal(nestingDepth('1'), 0);
    assert.equal(nestingDepth('{}'), 1);
    assert.equal(nestingDepth('{"a":[{"b":[]}]}'), 4);
    assert.equal(nestingDepth('{"a":"[[[[{{{{"}'), 1);
    assert.equal(nestingDepth('{"a":"\\"[[[[","b":[1]}'), 2);
    assert.equal(nestingDepth('["\\\\",[[]]]'), 3, 'an escaped backslash ends before the closing quote');
  });
});

describe('request bodies', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp({ maxJsonDepth: 8 });
  });
  after(() => t.close());

  const nested = (levels: number) => {
    // body (1) -> data (2) -> notificationSourceData (3) -> arrays down to the wanted depth
    const inner = levels - 3;
    return (
      `{"data":{"organizationId":"o","actionUser":{"userId":"a"},"displayHeadlineMessageTemplate":"t",` +
      `"notifyUsers":[{"userId":"u"}],"notificationSourceData":{"deep":${'['.repeat(inner)}${']'.repeat(inner)}}}}`
    );
  };

  test('a body exactly at the depth bound is accepted', async () => {
    const r = await t.a.post(PATHS.notificationsAdd, null, { raw: nested(8), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 200, r.body);
  });

  test('one level past the bound is INVALID_ARGUMENT and writes nothing', async () => {
    const r = await t.a.post(PATHS.notificationsAdd, null, { raw: nested(9), headers: { 'content-type': 'application/json' } });
    assert.match(expectError(r, 400, 'INVALID_ARGUMENT'), /deeper than 8 levels/);
    const got = await t.a.ok(PATHS.notificationsGet, { organizationId: 'o', userId: 'u' });
    assert.equal(got.data.length, 1, 'only the accepted notification exists');
  });

  test('very deep bodies are refused without harming the process', async () => {
    const deep = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const r = await t.a.post(PATHS.notificationsGet, null, { raw: deep, headers: { 'content-type': 'application/json' } });
    expectError(r, 400, 'INVALID_ARGUMENT');
    assert.equal((await t.request('/healthz', { method: 'GET' })).status, 200);
  });

  test('__proto__ and constructor keys are dropped and pollute nothing', async () => {
    const raw =
      '{"data":{"organizationId":"o","userId":"u","__proto__":{"polluted":1},' +
      '"constructor":{"prototype":{"polluted":2}}},"__proto__":{"polluted":3}}';
    const r = await t.a.post(PATHS.notificationsGet, null, { raw, headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 200, r.body);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
  });

  test('an empty or whitespace body and broken JSON are INVALID_ARGUMENT', async () => {
    for (const raw of ['', '   ', '{"data":', 'nul', '{"data":{}}x']) {
      const r = await t.a.post(PATHS.notificationsGet, null, { raw, headers: { 'content-type': 'application/json' } });
      expectError(r, 400, 'INVALID_ARGUMENT', JSON.stringify(raw));
    }
  });

  test('strings and keys with lone surrogates or NUL are INVALID_ARGUMENT; paired ones and escaped backslashes are fine', async () => {
    for (const raw of [
      '{"data":{"organizationId":"o\\ud800","userId":"u"}}',
      '{"data":{"organizationId":"o","userId":"\\udfffx"}}',
      '{"data":{"organizationId":"o","userId":"u","\\ud83d":1}}',
      '{"data":{"organizationId":"o","userId":"u\\u0000"}}',
      '{"data":{"organizationId":"o","userId":"u","x":{"\\u0000":1}}}',
    ]) {
      const r = await t.a.post(PATHS.notificationsGet, null, { raw, headers: { 'content-type': 'application/json' } });
      assert.match(expectError(r, 400, 'INVALID_ARGUMENT', raw), /NUL character or a lone surrogate/);
    }
    for (const raw of [
      '{"data":{"organizationId":"o\\ud83d\\ude00","userId":"u"}}',
      '{"data":{"organizationId":"o\\\\ud800","userId":"u"}}',
    ]) {
      const r = await t.a.post(PATHS.notificationsGet, null, { raw, headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 200, `${raw}: ${r.body}`);
    }
  });
});
