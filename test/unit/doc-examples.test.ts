// How test/system/docs-examples.test.ts reads docs/api.md's examples and compares a shown answer with a real one
// (helpers/doc-examples.ts): the conventions the doc's "Examples" section states, each one able to fail.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Bindings, compareShown, parseBlocks } from '../helpers/doc-examples.js';

const fence = '```';

describe('parseBlocks', () => {
  test('a command runs on while a quote is open or a line ends in a backslash; `#` lines up to a blank line are its answer', () => {
    const md = [
      '## Users',
      '',
      `${fence}sh`,
      `curl -s $M/v1/users/add -d '{"data": {`,
      `  "x": 1}}'`,
      '# {"result":',
      '#   {"ok":true}}',
      'T=$(curl -s $M/a \\',
      '  | jq -r .token)',
      '',
      '# a comment on what follows',
      'echo "two',
      'lines"',
      fence,
    ].join('\n');
    const [block] = parseBlocks(md);
    assert.equal(block!.heading, 'Users');
    assert.equal(block!.line, 3);
    assert.deepEqual(
      block!.commands.map((c) => [c.line, c.text, c.shown]),
      [
        [4, `curl -s $M/v1/users/add -d '{"data": {\n  "x": 1}}'`, '{"result":\n  {"ok":true}}'],
        [8, 'T=$(curl -s $M/a \\\n  | jq -r .token)', null],
        [12, 'echo "two\nlines"', null],
      ],
    );
    assert.equal(block!.notRun, null);
    assert.equal(block!.repeat, false);
  });

  test('the mark before a block, an indented block, and an unclosed one', () => {
    const md = [
      '1. A list',
      '',
      '   <!-- not run: needs a mail server -->',
      `   ${fence}sh`,
      '   mail -s hi',
      `   ${fence}`,
    ].join('\n');
    const [block] = parseBlocks(md);
    assert.equal(block!.notRun, 'needs a mail server');
    assert.equal(block!.commands[0]!.text, 'mail -s hi');
    assert.equal(parseBlocks(`<!-- repeat until shown: a job -->\n${fence}sh\ncurl x\n${fence}`)[0]!.repeat, true);
    assert.throws(() => parseBlocks(`${fence}sh\ncurl x\n# {}\n### Next\n`), /not closed before the heading/);
    assert.throws(() => parseBlocks(`${fence}sh\ncurl x '\n${fence}\n`), /not closed/);
    assert.throws(() => parseBlocks(`${fence}sh\n# {"result":{}}\n${fence}\n`), /has no command/);
  });
});

describe('compareShown', () => {
  const compare = (shown: string, actual: unknown, bindings = new Bindings()) => {
    const { mismatch, learned } = compareShown(shown, actual, bindings);
    if (!mismatch) bindings.commit(learned);
    return mismatch;
  };

  test('an object shown without `...` has exactly its members; with it, at least them', () => {
    assert.equal(compare('{"a":1,"b":"x"}', { a: 1, b: 'x' }), null);
    assert.match(compare('{"a":1}', { a: 1, b: 'x' })!, /members not shown.*: b/);
    assert.equal(compare('{"a":1,...}', { a: 1, b: 'x' }), null);
    assert.match(compare('{"a":2,...}', { a: 1 })!, /\.a: shown 2, got 1/);
    assert.match(compare('{"c":1,...}', { a: 1 })!, /no member "c"/);
  });

  test('a fragment matches some object of the answer, at any depth', () => {
    const answer = { result: { status: 'success', data: { spec: { total: 1 } } } };
    assert.equal(compare('"data":{"spec":{"total":1}}', answer), null);
    assert.match(compare('"data":{"spec":{"total":3}}', answer)!, /\.result\.data\.spec\.total: shown 3, got 1/);
  });

  test('arrays: exactly the items shown, or a gap where `...` stands', () => {
    assert.equal(compare('[1,2]', [1, 2]), null);
    assert.match(compare('[1]', [1, 2])!, /more items than shown/);
    assert.equal(compare('[1,...]', [1, 2, 3]), null);
    assert.equal(compare('[...,3]', [1, 2, 3]), null);
    assert.match(compare('[...,4]', [1, 2, 3])!, /shown 4/);
    assert.equal(compare('[...]', []), null);
  });

  test('the rest of a string, a value, times', () => {
    assert.equal(compare('{"k":"mk_..."}', { k: 'mk_abc' }), null);
    assert.match(compare('{"k":"mt_..."}', { k: 'mk_abc' })!, /shown "mt_\.\.\."/);
    assert.equal(compare('{"t":...}', { t: [1] }), null);
    assert.equal(compare('{"t":1795466817409}', { t: 1795900000123 }), null);
    assert.match(compare('{"n":14}', { n: 20 })!, /shown 14, got 20/);
    assert.equal(compare('{"at":"2026-11-21T09:53:42.258Z"}', { at: '2026-11-28T19:00:00.000Z' }), null);
    assert.match(compare('{"at":"2026-11-21T09:53:42.258Z"}', { at: 'yesterday' })!, /shown/);
    assert.throws(() => compare('{"m":"a long\n#   message"}', { m: 'a long message' }), /on one line/);
  });

  test('an id the server made matches one of its kind, then stands for it: in answers, keys and later commands', () => {
    const b = new Bindings();
    const ann = '2a91ec7e343b7dd6e480bf99ba4c2990';
    const real = '0123456789abcdef0123456789abcdef';
    assert.equal(compare(`{"id":"${ann}"}`, { id: real }, b), null);
    assert.equal(b.apply(`curl -d '{"id": "${ann}"}'`), `curl -d '{"id": "${real}"}'`);
    // Shown again, it must be that id, as a value or as a key.
    assert.match(compare(`{"id":"${ann}"}`, { id: 'ffffffffffffffffffffffffffffffff' }, b)!, /shown/);
    assert.equal(compare(`{"${ann}":true}`, { [real]: true }, b), null);
    // Another shown id cannot stand for the same real one.
    assert.match(compare('{"id":"d2ce732b9e45d5b3c5e13e533a5081db"}', { id: real }, b)!, /shown/);
    // Not of its kind: a UUID is not 32 hex.
    assert.match(
      compare('{"id":"d2ce732b9e45d5b3c5e13e533a5081db"}', { id: '01a2093f-c574-77d5-a880-10010575943e' }, b)!,
      /shown/,
    );
    // A learned id inside a longer one (a step id holds its execution's) is written as the real one too.
    const exec = new Bindings();
    assert.equal(compare('{"s":"step_draft_17_k3"}', { s: 'step_draft_99_zz' }, exec), null);
    assert.equal(exec.apply('"step_draft_17_k3__to__review"'), '"step_draft_99_zz__to__review"');
  });

  test('ids learned by an answer that does not match are forgotten', () => {
    const b = new Bindings();
    assert.match(compare('{"id":"wh_5f0c","n":1}', { id: 'wh_abcd', n: 2 }, b)!, /shown 1/);
    assert.equal(b.apply('wh_5f0c'), 'wh_5f0c');
  });
});
