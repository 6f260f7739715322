// The email rules and pieces without a database (docs/api.md, "Email"; docs/operations.md, "Email"): the address
// check, who is mailed (ALL, MINE and what concerns a user, NONE), the template syntax and its escaping, the shipped
// templates, unsubscribe tokens (signed, tampered, foreign key, expired) and the digest's plan and grouping.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { headlineText, isMailAddress, mailReason, wantsMail } from '../../src/domain/email.js';
import { HEADLINES } from '../../src/domain/fan-out.js';
import { digestModel, fromAddress, planDigest, renderDigest } from '../../src/email/digest.js';
import { loadTemplates, parseTemplate, Template, TemplateError } from '../../src/email/templates.js';
import { newUnsubscribeSecret, signUnsubscribe, verifyUnsubscribe } from '../../src/email/unsubscribe.js';
import type { ClaimedDigest, DigestRow } from '../../src/store/email/types.js';

describe('addresses', () => {
  test('plain addresses pass; anything that could carry another recipient or a header does not', () => {
    for (const ok of ['a@example.com', 'first.last+tag@sub.example.co', "o'neil@example.org", 'x@a-b.example'])
      assert.ok(isMailAddress(ok), ok);
    for (const bad of [
      '',
      'no-at.example.com',
      '@example.com',
      'a@localhost',
      'a@example',
      'a@example.c0m',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a b@example.com',
      'a@exa mple.com',
      '"quoted"@example.com',
      'a@[127.0.0.1]',
      'a@example.com\r\nBcc: x@evil.test',
      'a@example.com, b@example.com',
      'Ann <a@example.com>',
      'a@-example.com',
      'ä@example.com',
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(250)}.com`,
      null,
      42,
    ])
      assert.ok(!isMailAddress(bad), String(bad));
  });
});

describe('who is mailed', () => {
  test('ALL always, MINE what concerns the user, NONE never', () => {
    const mention = mailReason('comment', HEADLINES.mention, true);
    const reply = mailReason('comment', HEADLINES.reply, true);
    const member = mailReason('comment', HEADLINES.member, true);
    const listed = mailReason('custom', 'anything', true);
    const wide = mailReason('custom', 'anything', false);
    assert.deepEqual(mention, { concerns: true, mention: true });
    assert.deepEqual(reply, { concerns: true, mention: false });
    assert.deepEqual(member, { concerns: false, mention: false });
    assert.deepEqual(listed, { concerns: true, mention: false });
    assert.deepEqual(wide, { concerns: false, mention: false });
    for (const r of [mention, reply, member, listed, wide]) {
      assert.equal(wantsMail('ALL', r), true);
      assert.equal(wantsMail('NONE', r), false);
      assert.equal(wantsMail('MINE', r), r.concerns);
    }
  });

  test('headlines: user objects by profile name, else their name, else their id; unknown placeholders stay', () => {
    const names = new Map([['ann', 'Ann Lee']]);
    assert.equal(headlineText('{actionUser} mentioned you', { actionUser: { userId: 'ann' } }, names), 'Ann Lee mentioned you');
    assert.equal(headlineText('{u} and {v}', { u: { userId: 'bo', name: 'Bo' }, v: { userId: 'cy' } }, names), 'Bo and cy');
    assert.equal(headlineText('{n} of {missing}', { n: 3 }, names), '3 of {missing}');
  });
});

describe('templates', () => {
  test('values are escaped in HTML and kept in text; sections repeat, test and invert', () => {
    const model = { name: `<b>"Tom" & 'Jerry'</b>`, list: [{ x: '1<' }, { x: '2>' }], none: [], flag: true };
    const src =
      'Hi {{name}}:{{#list}} [{{x}} {{name}}]{{/list}}{{#none}}never{{/none}}{{^none}} empty{{/none}}{{#flag}} yes{{/flag}}';
    assert.equal(
      new Template(src, true).render(model),
      'Hi &lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;: [1&lt; &lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;]' +
        ' [2&gt; &lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;] empty yes',
    );
    assert.equal(new Template(src, false).render(model), `Hi ${model.name}: [1< ${model.name}] [2> ${model.name}] empty yes`);
    // A value that looks like a tag is text: no second pass.
    assert.equal(new Template('{{a}}', true).render({ a: '{{b}}', b: '<x>' }), '{{b}}');
    // A section alone on its line takes the line.
    assert.equal(
      new Template('a\n{{#l}}\n- {{.}}{{v}}\n{{/l}}\nb', false).render({ l: [{ v: 1 }, { v: 2 }] }),
      'a\n- {{.}}1\n- {{.}}2\nb',
    );
  });

  test('an unclosed or mismatched section is refused with the file named', () => {
    assert.throws(
      () => parseTemplate('{{#a}}x', 'digest.html'),
      (e: Error) => e instanceof TemplateError && /digest\.html.*\{\{#a\}\}/.test(e.message),
    );
    assert.throws(() => parseTemplate('{{#a}}x{{/b}}', 'f'), TemplateError);
    assert.throws(() => parseTemplate('x{{/b}}', 'f'), TemplateError);
  });

  test("an operator's folder replaces the files it has; the others are the shipped ones", () => {
    const dir = mkdtempSync(join(tmpdir(), 'marginalia-templates-'));
    writeFileSync(join(dir, 'digest.subject.txt'), 'Custom: {{count}} for {{recipientName}}');
    const t = loadTemplates(dir);
    assert.equal(t['digest.subject.txt'].render({ count: 2, recipientName: '<x>' }), 'Custom: 2 for <x>');
    assert.equal(t['digest.html'].text, loadTemplates(null)['digest.html'].text);
    writeFileSync(join(dir, 'digest.html'), '{{#documents}}');
    assert.throws(() => loadTemplates(dir), TemplateError);
  });
});

describe('unsubscribe tokens', () => {
  const secret = newUnsubscribeSecret();
  const claims = { tenantId: 't1', organizationId: 'acme', userId: 'bob', expiresAt: 2_000_000 };
  const of = (s: string | null) => () => s;
  test('a token verifies under its tenant key until it expires', () => {
    const token = signUnsubscribe(claims, secret);
    assert.deepEqual(verifyUnsubscribe(token, of(secret), 1_000_000), { ok: true, claims });
    assert.deepEqual(verifyUnsubscribe(token, of(secret), 2_000_000), { ok: false, why: 'expired' });
  });
  test('tampered, cut, foreign and unknown-tenant tokens are refused', () => {
    const token = signUnsubscribe(claims, secret);
    const [v, payload, sig] = token.split('.') as [string, string, string];
    const other = Buffer.from(JSON.stringify({ t: 't1', o: 'acme', u: 'eve', x: 2_000_000 })).toString('base64url');
    assert.deepEqual(verifyUnsubscribe(`${v}.${other}.${sig}`, of(secret), 0), { ok: false, why: 'signature' });
    assert.deepEqual(verifyUnsubscribe(`${v}.${payload}.${sig.slice(1)}`, of(secret), 0), { ok: false, why: 'signature' });
    assert.deepEqual(verifyUnsubscribe(token, of(newUnsubscribeSecret()), 0), { ok: false, why: 'signature' });
    assert.deepEqual(verifyUnsubscribe(token, of(null), 0), { ok: false, why: 'signature' });
    for (const bad of [
      '',
      'u1',
      `${v}.${payload}`,
      `u2.${payload}.${sig}`,
      'u1.bm90IGpzb24.x',
      `u1.${Buffer.from('{"t":1}').toString('base64url')}.x`,
    ])
      assert.deepEqual(verifyUnsubscribe(bad, of(secret), 0), { ok: false, why: 'malformed' }, bad);
  });
});

describe('digests', () => {
  const row = (id: number, documentId: string | null, over: Partial<DigestRow> = {}): DigestRow => ({
    id,
    notificationId: `n${id}`,
    documentId,
    documentName: documentId === 'd1' ? 'Doc <1>' : null,
    concerns: true,
    mention: false,
    attempts: 0,
    createdAt: 0,
    notification: {
      headlineTemplate: '{actionUser} did <i>{what}</i>',
      headlineData: JSON.stringify({ actionUser: { userId: 'ann' }, what: `#${id}` }),
      body: '<p>Body &amp; <b>more</b></p>',
      actionUserId: 'ann',
      actionUserName: 'Ann',
      timestamp: Date.UTC(2026, 0, 2, 3, 4),
      source: 'custom',
    },
    ...over,
  });
  const digest = (over: Partial<ClaimedDigest> = {}): ClaimedDigest => ({
    tenantId: 't',
    organizationId: 'acme',
    userId: 'bob',
    profile: { name: 'Bob', email: 'bob@example.com' },
    settings: new Map(),
    service: null,
    names: new Map(),
    rows: [row(1, 'd1'), row(2, 'd2', { concerns: false }), row(3, null), row(4, 'd1', { notification: null }), row(5, 'd1')],
    ...over,
  });

  test('the plan: MINE leaves what does not concern the user, deleted notifications go, the document setting wins', () => {
    const plan = planDigest(digest());
    assert.equal(plan.to, 'bob@example.com');
    assert.deepEqual(
      plan.mailed.map((r) => r.id),
      [1, 3, 5],
    );
    assert.deepEqual(
      plan.skipped.map((s) => [s.row.id, s.reason]),
      [
        [2, 'setting'],
        [4, 'deleted'],
      ],
    );
    const docs = planDigest(
      digest({
        settings: new Map([
          ['', 'NONE'],
          ['d2', 'ALL'],
        ]),
      }),
    );
    assert.deepEqual(
      docs.mailed.map((r) => r.id),
      [2],
    );
  });

  test('no address, a malformed one, or the workspace email service off: nothing is mailed', () => {
    assert.deepEqual(new Set(planDigest(digest({ profile: null })).skipped.map((s) => s.reason)), new Set(['no_address']));
    assert.equal(planDigest(digest({ profile: { name: null, email: 'bob@example.com\nBcc: x@y.z' } })).mailed.length, 0);
    const off = planDigest(digest({ service: { enabled: false, config: {} } }));
    assert.deepEqual(new Set(off.skipped.map((s) => s.reason)), new Set(['email_service_off']));
    assert.equal(planDigest(digest({ service: { enabled: true, config: {} } })).mailed.length, 3);
  });

  test("the workspace's fromEmail replaces the operator's when it is an address", () => {
    assert.equal(
      fromAddress({ service: { enabled: true, config: { fromEmail: 'team@acme.test' } } }, 'op@x.test'),
      'team@acme.test',
    );
    assert.equal(fromAddress({ service: { enabled: true, config: { fromEmail: 'nope' } } }, 'op@x.test'), 'op@x.test');
    assert.equal(fromAddress({ service: null }, 'op@x.test'), 'op@x.test');
  });

  test('grouped by document in first-seen order, the text of HTML bodies, everything escaped in HTML', () => {
    const d = digest();
    const model = digestModel(d, planDigest(d).mailed, 'https://m.test/email/unsubscribe?token=a&b');
    const mail = renderDigest(loadTemplates(null), model);
    assert.equal(mail.subject, '3 new notifications in acme');
    assert.ok(mail.text.indexOf('== Doc <1> ==') < mail.text.indexOf('== acme (organization-wide) =='));
    assert.ok(mail.text.includes('- Ann did #1 (2026-01-02 03:04 UTC)\n  Body & more\n'), mail.text);
    assert.ok(mail.html.includes('<h2 style="font-size:1.1em;margin:1.2em 0 .4em">Doc &lt;1&gt;</h2>'));
    assert.ok(mail.html.includes('Body &amp; more'));
    assert.ok(mail.html.includes('href="https://m.test/email/unsubscribe?token=a&amp;b"'));
    assert.ok(!/<i>|<b>|<p>Body/.test(mail.html));
  });
});
