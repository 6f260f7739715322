// commentannotations/add, comments/add and comments/get: the successful paths of docs/api.md
// "Identifiers and limits" and "What a thread reads as".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ISO_MS, makeTestApp, PATHS, steppingClock, type Caller, type TestApp } from '../helpers/app.js';

const START = Date.UTC(2024, 5, 20, 9, 53, 42, 258);
let t: TestApp;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;

const c = (commentText: string, userId = 'u1', extra: Record<string, unknown> = {}) => ({
  commentText,
  from: { userId },
  ...extra,
});

/** Creates one annotation in a fresh organization/document; returns its coordinates and result entry. */
async function thread(
  commentData: unknown[],
  opts: { caller?: Caller; organizationId?: string; documentId?: string; annotationId?: string } = {},
) {
  const caller = opts.caller ?? t.a;
  const organizationId = opts.organizationId ?? uniq('org');
  const documentId = opts.documentId ?? 'doc';
  const annotationId = opts.annotationId ?? uniq('ann');
  const result = await caller.ok(PATHS.annotationsAdd, {
    organizationId,
    documentId,
    commentAnnotations: [{ annotationId, commentData }],
  });
  return { organizationId, documentId, annotationId, entry: result.data[annotationId], result };
}

async function getAll(
  where: { organizationId: string; documentId: string; annotationId: string },
  extra: Record<string, unknown> = {},
  caller: Caller = t.a,
) {
  const r = await caller.ok(PATHS.commentsGet, { ...where, ...extra });
  assert.equal(r.message, 'Comments(s) retrieved successfully.', JSON.stringify(r));
  assert.ok(Array.isArray(r.data), JSON.stringify(r));
  return r.data as any[];
}

const ids = (list: any[]) => list.map((x) => (x === null ? null : x.commentId));

describe('comments happy paths', () => {
  before(async () => {
    t = await makeTestApp({ clock: steppingClock(START) });
  });
  after(async () => {
    await t.close();
  });

  test('commentannotations/add: message, entry keyed by annotationId, commentIds 1..n', async () => {
    const org = uniq('org');
    const result = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 'a1', commentData: [c('one'), c('two'), c('three')] }],
    });
    assert.equal(result.status, 'success');
    assert.equal(result.message, 'Comment Annotation(s) added successfully.', JSON.stringify(result));
    assert.deepEqual(result.data, {
      a1: { success: true, annotationId: 'a1', commentIds: [1, 2, 3], message: 'Added Successfully' },
    });
  });

  test('comments/get returns every field of each comment, oldest first', async () => {
    const th = await thread([
      { commentText: 'first', from: { userId: 'writer', name: 'Writer W', email: 'w@example.com' } },
      { commentHtml: '<p>second <b>bold</b></p>', from: { userId: 'other' } },
    ]);
    const list = await getAll(th);
    assert.equal(list.length, 2, JSON.stringify(list));
    for (const x of list) {
      assert.deepEqual(
        Object.keys(x).sort(),
        ['commentHtml', 'commentId', 'commentText', 'createdAt', 'from', 'lastUpdated', 'status', 'type'],
        JSON.stringify(x),
      );
      assert.equal(x.status, 'added');
      assert.equal(x.type, 'text');
      assert.match(x.lastUpdated, ISO_MS, JSON.stringify(x));
      assert.ok(Number.isInteger(x.createdAt), JSON.stringify(x));
      assert.equal(x.lastUpdated, new Date(x.createdAt).toISOString(), 'lastUpdated and createdAt are the same instant');
      assert.ok(x.createdAt >= START && x.createdAt < START + 100_000, `createdAt from the injected clock: ${x.createdAt}`);
    }
    assert.equal(list[0].commentId, 1);
    assert.equal(list[0].commentText, 'first');
    assert.equal(list[0].commentHtml, '<p>first</p>');
    assert.deepEqual(list[0].from, { email: 'w@example.com', name: 'Writer W', userId: 'writer' });
    assert.equal(list[1].commentId, 2);
    assert.equal(list[1].commentHtml, '<p>second <b>bold</b></p>');
    assert.equal(list[1].commentText, 'second bold');
    assert.deepEqual(list[1].from, { email: '', name: '', userId: 'other' }, 'no name/email anywhere reads as ""');
    assert.equal(list[0].createdAt, list[1].createdAt, 'one request, one instant');
  });

  test('timestamps: later requests get later times from the clock; earlier comments keep theirs', async () => {
    const th = await thread([c('a')]);
    const before1 = await getAll(th);
    await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('b')] });
    await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('c')] });
    const list = await getAll(th);
    assert.deepEqual(list[0], before1[0], 'first comment unchanged by later adds');
    assert.ok(
      list[0].createdAt < list[1].createdAt && list[1].createdAt < list[2].createdAt,
      JSON.stringify(list.map((x) => x.createdAt)),
    );
    for (const x of list) assert.equal(x.lastUpdated, new Date(x.createdAt).toISOString());
  });

  test('several annotations in one request, with generated annotationIds when absent or null', async () => {
    const org = uniq('org');
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { commentData: [c('gen1')] },
        { annotationId: 'given', commentData: [c('given1'), c('given2')] },
        { annotationId: null, commentData: [c('gen2')] },
      ],
    });
    const keys = Object.keys(r.data);
    assert.equal(keys.length, 3, JSON.stringify(r));
    assert.ok(keys.includes('given'), JSON.stringify(r));
    const generated = keys.filter((k) => k !== 'given');
    assert.equal(new Set(generated).size, 2, 'two distinct generated ids');
    for (const k of keys) {
      const e = r.data[k];
      assert.equal(e.annotationId, k, JSON.stringify(e));
      assert.equal(e.success, true);
      assert.equal(e.message, 'Added Successfully');
      assert.equal(typeof k, 'string');
      assert.ok(k.length >= 1 && [...k].length <= 256, k);
    }
    assert.deepEqual(r.data.given.commentIds, [1, 2]);
    const texts = new Set<string>();
    for (const k of generated) {
      assert.deepEqual(r.data[k].commentIds, [1]);
      const list = await getAll({ organizationId: org, documentId: 'doc', annotationId: k });
      assert.equal(list.length, 1);
      texts.add(list[0].commentText);
    }
    assert.deepEqual([...texts].sort(), ['gen1', 'gen2']);
    assert.deepEqual(
      (await getAll({ organizationId: org, documentId: 'doc', annotationId: 'given' })).map((x) => x.commentText),
      ['given1', 'given2'],
    );
  });

  test('commentannotations/add: caller-chosen commentIds are kept; generated ones follow the largest so far', async () => {
    const a = await thread([c('x', 'u', { commentId: 5 }), c('y'), c('z')]);
    assert.deepEqual(a.entry.commentIds, [5, 6, 7]);
    const b = await thread([c('x'), c('y', 'u', { commentId: 10 }), c('z')]);
    assert.deepEqual(b.entry.commentIds, [1, 10, 11]);
    const d = await thread([c('x', 'u', { commentId: 3 }), c('y', 'u', { commentId: 1 }), c('z', 'u', { commentId: 2 })]);
    assert.deepEqual(d.entry.commentIds, [3, 1, 2]);
    assert.deepEqual(ids(await getAll(d)), [3, 1, 2], 'creation order, not id order');
    const e = await thread([c('x', 'u', { commentId: 9 }), c('y', 'u', { commentId: 2 }), c('z')]);
    assert.deepEqual(e.entry.commentIds, [9, 2, 10], 'generated is one more than the largest so far, not the last');
    const f = await thread([c('x', 'u', { commentId: null }), c('y', 'u', { commentId: 4 })]);
    assert.deepEqual(f.entry.commentIds, [1, 4], 'null commentId means generated');
  });

  test('comments/add: message, data is the new commentIds in request order', async () => {
    const th = await thread([c('one'), c('two')]);
    const r = await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('three'), c('four')] });
    assert.equal(r.message, 'Comment(s) added successfully.', JSON.stringify(r));
    assert.deepEqual(r.data, [3, 4]);
    const r2 = await t.a.ok(PATHS.commentsAdd, {
      ...th,
      commentData: [c('seven', 'u', { commentId: 7 }), c('eight'), c('five', 'u', { commentId: 5 })],
    });
    assert.deepEqual(r2.data, [7, 8, 5], JSON.stringify(r2));
    const r3 = await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('nine')] });
    assert.deepEqual(r3.data, [9], 'one more than the largest in the annotation');
    const list = await getAll(th);
    assert.deepEqual(ids(list), [1, 2, 3, 4, 7, 8, 5, 9]);
    assert.deepEqual(
      list.map((x) => x.commentText),
      ['one', 'two', 'three', 'four', 'seven', 'eight', 'five', 'nine'],
    );
  });

  test('comments come back oldest first even when caller-chosen ids decrease across requests', async () => {
    const th = await thread([c('ten', 'u', { commentId: 10 })]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('gen')] })).data, [11]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('two', 'u', { commentId: 2 })] })).data, [2]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('gen2')] })).data, [12]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('one', 'u', { commentId: 1 })] })).data, [1]);
    const list = await getAll(th);
    assert.deepEqual(ids(list), [10, 11, 2, 12, 1]);
    assert.deepEqual(
      list.map((x) => x.commentText),
      ['ten', 'gen', 'two', 'gen2', 'one'],
    );
  });

  test('generated id after a large caller-chosen id, and the largest possible id', async () => {
    const th = await thread([c('big', 'u', { commentId: 100 })]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [c('next')] })).data, [101]);
    const top = await thread([c('almost', 'u', { commentId: 2147483646 })]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...top, commentData: [c('last')] })).data, [2147483647]);
    assert.deepEqual(ids(await getAll(top)), [2147483646, 2147483647]);
    const one = await thread([c('min', 'u', { commentId: 1 }), c('max', 'u', { commentId: 2147483647 })]);
    assert.deepEqual(one.entry.commentIds, [1, 2147483647]);
    // A free id below the maximum can still be chosen.
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...one, commentData: [c('mid', 'u', { commentId: 500 })] })).data, [500]);
  });

  test('commentText only: html is the text escaped into a paragraph', async () => {
    const text = 'a < b && c > d "q" \'s\' <script>alert(1)</script>';
    const th = await thread([c(text)]);
    const [x] = await getAll(th);
    assert.equal(x.commentText, text);
    assert.equal(
      x.commentHtml,
      '<p>a &lt; b &amp;&amp; c &gt; d &quot;q&quot; &#39;s&#39; &lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });

  test('commentHtml only: text is derived (markup stripped, entities decoded); html kept when allowed', async () => {
    const th = await thread([
      { commentHtml: '<p>Tom &amp; Jerry &lt;3 &quot;cheese&quot; &#169; &#x1F600;</p>', from: { userId: 'u' } },
      { commentHtml: '<h1>Title</h1><ul><li>one</li><li><em>two</em></li></ul>', commentText: null, from: { userId: 'u' } },
    ]);
    const [x, y] = await getAll(th);
    assert.equal(x.commentText, 'Tom & Jerry <3 "cheese" © 😀');
    assert.match(x.commentHtml, /^<p>Tom &amp; Jerry &lt;3 /, x.commentHtml);
    assert.equal(y.commentHtml, '<h1>Title</h1><ul><li>one</li><li><em>two</em></li></ul>');
    assert.match(y.commentText, /^\s*Title\s*one\s*two\s*$/, y.commentText);
  });

  test('both given: html sanitized, text kept as sent', async () => {
    const th = await thread([
      {
        commentHtml: '<p onclick="x()">Hello <script>evil()</script><b>there</b></p>',
        commentText: 'Hello there (plain)',
        from: { userId: 'u' },
      },
    ]);
    const [x] = await getAll(th);
    assert.equal(x.commentHtml, '<p>Hello <b>there</b></p>');
    assert.equal(x.commentText, 'Hello there (plain)');
  });

  test('every allowlisted tag survives sanitizing', async () => {
    const html =
      '<p>p</p><br /><b>b</b><strong>st</strong><i>i</i><em>em</em><u>u</u><s>s</s><del>del</del>' +
      '<code>code</code><pre>pre</pre><blockquote>bq</blockquote><ul><li>ul</li></ul><ol><li>ol</li></ol>' +
      '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6><span>span</span><a href="https://example.com/">a</a>';
    const [x] = await getAll(await thread([{ commentHtml: html, from: { userId: 'u' } }]));
    for (const tag of [
      'p',
      'b',
      'strong',
      'i',
      'em',
      'u',
      's',
      'del',
      'code',
      'pre',
      'blockquote',
      'ul',
      'ol',
      'li',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'span',
    ]) {
      assert.ok(x.commentHtml.includes(`<${tag}>`), `<${tag}> kept: ${x.commentHtml}`);
    }
    assert.match(x.commentHtml, /<br\s*\/?>/);
    assert.ok(x.commentHtml.includes('<a href="https://example.com/">a</a>'), x.commentHtml);
    assert.equal(x.commentText.replace(/\s+/g, ''), 'pbstiemusdelcodeprebqulol123456spana', x.commentText);
  });

  test('sanitizing: dangerous markup never comes back; http, https and mailto links keep their href', async () => {
    const html =
      '<p onclick="steal()" style="color:red" class="c">Hi <a href="javascript:alert(1)">js</a> ' +
      '<a href="/relative/path">rel</a> <a href="//evil.example/x">proto-rel</a> <a href="http://ok.example/p?a=1&amp;b=2">http</a> ' +
      '<a href="https://secure.example/">https</a> <a href="mailto:someone@example.com">mail</a> <a href="data:text/html,x">data</a> ' +
      '<a href="ftp://files.example/">ftp</a> <a href="vbscript:msgbox(1)">vbs</a></p>' +
      '<script>alert("s")</script><style>body{display:none}</style><iframe src="https://evil.example/">frame text</iframe>' +
      '<img src="x" onerror="alert(2)"><div onmouseover="alert(3)">div text</div><svg onload="alert(4)"><circle /></svg>';
    const [x] = await getAll(await thread([{ commentHtml: html, from: { userId: 'u' } }]));
    const out: string = x.commentHtml;
    for (const bad of [
      '<script',
      '</script',
      '<style',
      '<iframe',
      '<img',
      '<svg',
      'onclick',
      'onerror',
      'onmouseover',
      'onload',
      'javascript:',
      'vbscript:',
      'data:',
      'ftp:',
      '/relative/path',
      '//evil.example',
      'style=',
      'class=',
      'alert("s")',
      'display:none',
    ]) {
      assert.ok(!out.toLowerCase().includes(bad), `${bad} must not come back: ${out}`);
    }
    assert.ok(out.includes('href="http://ok.example/p?a=1&amp;b=2"'), out);
    // docs/api.md "Comment HTML" keeps div; an img without an absolute http(s) src goes whole.
    assert.ok(out.includes('<div>div text</div>'), out);
    assert.ok(out.includes('href="https://secure.example/"'), out);
    assert.ok(out.includes('href="mailto:someone@example.com"'), out);
    // Links without an allowed href keep their text.
    for (const text of ['>js<', '>rel<', '>proto-rel<', '>data<', '>ftp<', '>vbs<', 'div text'])
      assert.ok(out.includes(text), `${text}: ${out}`);
    // Derived text: script and style content dropped.
    assert.ok(!x.commentText.includes('alert("s")'), x.commentText);
    assert.ok(!x.commentText.includes('display:none'), x.commentText);
    assert.ok(x.commentText.startsWith('Hi js rel proto-rel http https mail data ftp vbs'), x.commentText);
  });

  test('comments/get userIds filter keeps only those authors; empty or null filters mean no filter', async () => {
    const th = await thread([c('u1-a', 'u1'), c('u2-a', 'u2'), c('u3-a', 'u3'), c('u1-b', 'u1')]);
    assert.deepEqual(ids(await getAll(th, { userIds: ['u1'] })), [1, 4]);
    assert.deepEqual(ids(await getAll(th, { userIds: ['u3', 'u2'] })), [2, 3], 'still creation order');
    assert.deepEqual(ids(await getAll(th, { userIds: ['u1', 'u1'] })), [1, 4], 'repeated userIds allowed');
    assert.deepEqual(ids(await getAll(th, { userIds: ['nobody'] })), []);
    assert.deepEqual(ids(await getAll(th, { userIds: [] })), [1, 2, 3, 4]);
    assert.deepEqual(ids(await getAll(th, { userIds: null })), [1, 2, 3, 4]);
    assert.deepEqual(ids(await getAll(th, { commentIds: [] })), [1, 2, 3, 4]);
    assert.deepEqual(ids(await getAll(th, { commentIds: null, userIds: [] })), [1, 2, 3, 4]);
    assert.deepEqual(ids(await getAll(th, { commentIds: [], userIds: ['u2'] })), [2]);
  });

  test('userIds filter matches exactly (case, spaces, a prefix is not a match)', async () => {
    const th = await thread([c('lower', 'alice'), c('upper', 'Alice'), c('longer', 'ab'), c('plain-a', 'a')]);
    assert.deepEqual(ids(await getAll(th, { userIds: ['alice'] })), [1]);
    assert.deepEqual(ids(await getAll(th, { userIds: ['Alice'] })), [2]);
    assert.deepEqual(ids(await getAll(th, { userIds: ['alice ', 'ALICE'] })), []);
    assert.deepEqual(ids(await getAll(th, { userIds: ['ab'] })), [3]);
    assert.deepEqual(ids(await getAll(th, { userIds: ['a'] })), [4]);
  });

  test('a NUL character in an id or a body is INVALID_ARGUMENT (neither database could keep it as sent)', async () => {
    const th = await thread([c('one')]);
    const asFilter = await t.a.post(PATHS.commentsGet, { ...th, userIds: ['a\u0000b'] });
    assert.equal(asFilter.status, 400, asFilter.body);
    const asAuthor = await t.a.post(PATHS.commentsAdd, {
      ...th,
      commentData: [{ commentText: 'x', from: { userId: 'a\u0000b' } }],
    });
    assert.equal(asAuthor.status, 400, asAuthor.body);
    const asText = await t.a.post(PATHS.commentsAdd, {
      ...th,
      commentData: [{ commentText: 'a\u0000b', from: { userId: 'u' } }],
    });
    assert.equal(asText.status, 400, asText.body);
    assert.deepEqual(ids(await getAll(th, {})), [1], 'nothing was added');
  });

  test('comments/get commentIds: requested order, null for missing, repeats allowed', async () => {
    const th = await thread([c('one'), c('two'), c('three')]);
    const list = await getAll(th, { commentIds: [3, 99, 1, 3, 2147483647] });
    assert.equal(list.length, 5, JSON.stringify(list));
    assert.deepEqual(ids(list), [3, null, 1, 3, null]);
    assert.equal(list[0].commentText, 'three');
    assert.equal(list[2].commentText, 'one');
    assert.deepEqual(list[3], list[0], 'a repeated id gives the same comment twice');
    assert.deepEqual(ids(await getAll(th, { commentIds: [2] })), [2]);
    assert.deepEqual(ids(await getAll(th, { commentIds: [42, 43] })), [null, null]);
  });

  test('comments/get commentIds with userIds: null where the comment fails the filter', async () => {
    const th = await thread([c('by-a', 'alice'), c('by-b', 'bob'), c('by-a2', 'alice')]);
    const list = await getAll(th, { commentIds: [2, 1, 3, 7, 1], userIds: ['alice'] });
    assert.deepEqual(ids(list), [null, 1, 3, null, 1]);
    assert.deepEqual(ids(await getAll(th, { commentIds: [1, 2], userIds: ['bob'] })), [null, 2]);
  });

  test('comments/get on an unknown annotation: [] or all null', async () => {
    const th = await thread([c('x')]);
    const unknown = { organizationId: th.organizationId, documentId: th.documentId, annotationId: 'no-such-annotation' };
    assert.deepEqual(await getAll(unknown), []);
    assert.deepEqual(await getAll(unknown, { userIds: ['u1'] }), []);
    assert.deepEqual(await getAll(unknown, { commentIds: [1, 2, 1] }), [null, null, null]);
    // Same annotationId, other document or organization: another (unknown) annotation.
    assert.deepEqual(await getAll({ ...th, documentId: 'other-doc' }), []);
    assert.deepEqual(await getAll({ ...th, organizationId: uniq('org') }, { commentIds: [1] }), [null]);
  });

  test('the same annotationId in another document or organization is an independent thread', async () => {
    const org = uniq('org');
    const a = await thread([c('doc1')], { organizationId: org, documentId: 'doc1', annotationId: 'shared' });
    const b = await thread([c('doc2-1'), c('doc2-2')], { organizationId: org, documentId: 'doc2', annotationId: 'shared' });
    const o = await thread([c('org2')], { organizationId: uniq('org'), documentId: 'doc1', annotationId: 'shared' });
    assert.deepEqual(a.entry.commentIds, [1]);
    assert.deepEqual(b.entry.commentIds, [1, 2]);
    assert.deepEqual(o.entry.commentIds, [1]);
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...a, commentData: [c('doc1-2')] })).data, [2]);
    assert.deepEqual(
      (await getAll(a)).map((x) => x.commentText),
      ['doc1', 'doc1-2'],
    );
    assert.deepEqual(
      (await getAll(b)).map((x) => x.commentText),
      ['doc2-1', 'doc2-2'],
    );
    assert.deepEqual(
      (await getAll(o)).map((x) => x.commentText),
      ['org2'],
    );
  });

  test('a taken annotationId gives that entry success:false and still adds the others', async () => {
    const org = uniq('org');
    await thread([c('original'), c('original-2')], { organizationId: org, annotationId: 'taken' });
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'fresh1', commentData: [c('f1')] },
        { annotationId: 'taken', commentData: [c('intruder', 'u', { commentId: 1 }), c('intruder-2')] },
        { annotationId: 'fresh2', commentData: [c('f2a'), c('f2b')] },
      ],
    });
    assert.equal(r.message, 'Comment Annotation(s) added successfully.');
    assert.deepEqual(r.data, {
      fresh1: { success: true, annotationId: 'fresh1', commentIds: [1], message: 'Added Successfully' },
      taken: { success: false, annotationId: 'taken', message: 'Annotation already exists.' },
      fresh2: { success: true, annotationId: 'fresh2', commentIds: [1, 2], message: 'Added Successfully' },
    });
    const where = (annotationId: string) => ({ organizationId: org, documentId: 'doc', annotationId });
    assert.deepEqual(
      (await getAll(where('taken'))).map((x) => x.commentText),
      ['original', 'original-2'],
      'existing thread untouched',
    );
    assert.deepEqual(
      (await getAll(where('fresh1'))).map((x) => x.commentText),
      ['f1'],
    );
    assert.deepEqual(
      (await getAll(where('fresh2'))).map((x) => x.commentText),
      ['f2a', 'f2b'],
    );
    // All taken: still a success response.
    const again = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [{ annotationId: 'fresh1', commentData: [c('x')] }],
    });
    assert.deepEqual(again.data, { fresh1: { success: false, annotationId: 'fresh1', message: 'Annotation already exists.' } });
    assert.deepEqual(
      (await getAll(where('fresh1'))).map((x) => x.commentText),
      ['f1'],
    );
  });

  test('author resolution: profile wins field by field, falls back to the writer, else ""', async () => {
    const org = uniq('org');
    const th = await thread(
      [
        { commentText: 'p', from: { userId: 'profiled', name: 'Sent P', email: 'sentp@example.com' } },
        { commentText: 'h', from: { userId: 'halfProfile', name: 'Sent H', email: 'senth@example.com' } },
        { commentText: 'n', from: { userId: 'noProfile', name: 'Sent N' } },
        { commentText: 'z', from: { userId: 'nothing', name: null, email: null } },
      ],
      { organizationId: org },
    );
    let list = await getAll(th);
    assert.deepEqual(
      list.map((x) => x.from),
      [
        { email: 'sentp@example.com', name: 'Sent P', userId: 'profiled' },
        { email: 'senth@example.com', name: 'Sent H', userId: 'halfProfile' },
        { email: '', name: 'Sent N', userId: 'noProfile' },
        { email: '', name: '', userId: 'nothing' },
      ],
    );
    await t.a.ok(PATHS.usersAdd, {
      organizationId: org,
      users: [
        { userId: 'profiled', name: 'Prof P', email: 'profp@example.com' },
        { userId: 'halfProfile', name: 'Prof H' },
        { userId: 'nothing', email: 'z@example.com' },
      ],
    });
    // A profile of the same userId in another organization does not apply.
    await t.a.ok(PATHS.usersAdd, {
      organizationId: uniq('org'),
      users: [{ userId: 'noProfile', name: 'Elsewhere', email: 'else@example.com' }],
    });
    list = await getAll(th);
    assert.deepEqual(
      list.map((x) => x.from),
      [
        { email: 'profp@example.com', name: 'Prof P', userId: 'profiled' },
        { email: 'senth@example.com', name: 'Prof H', userId: 'halfProfile' },
        { email: '', name: 'Sent N', userId: 'noProfile' },
        { email: 'z@example.com', name: '', userId: 'nothing' },
      ],
    );
    // A later users/update shows at once.
    await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [
        { userId: 'halfProfile', email: 'profh@example.com' },
        { userId: 'profiled', name: 'Prof P2' },
      ],
    });
    list = await getAll(th);
    assert.deepEqual(list[0].from, { email: 'profp@example.com', name: 'Prof P2', userId: 'profiled' });
    assert.deepEqual(list[1].from, { email: 'profh@example.com', name: 'Prof H', userId: 'halfProfile' });
    // Filters and commentIds resolve the same way.
    assert.deepEqual((await getAll(th, { commentIds: [2], userIds: ['halfProfile'] }))[0].from, list[1].from);
  });

  test('writing comments never creates users', async () => {
    const org = uniq('org');
    const th = await thread([{ commentText: 'x', from: { userId: 'commenter', name: 'C', email: 'c@example.com' } }], {
      organizationId: org,
    });
    await t.a.ok(PATHS.commentsAdd, { ...th, commentData: [{ commentText: 'y', from: { userId: 'commenter2', name: 'C2' } }] });
    const r = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      users: [{ userId: 'commenter' }, { userId: 'commenter2' }],
    });
    assert.equal(r.data.commenter.success, false, JSON.stringify(r));
    assert.equal(r.data.commenter.message, 'User does not exist.');
    assert.equal(r.data.commenter2.success, false, JSON.stringify(r));
    const docScope = await t.a.ok(PATHS.usersUpdate, {
      organizationId: org,
      documentId: th.documentId,
      users: [{ userId: 'commenter' }],
    });
    assert.equal(docScope.data.commenter.success, false, 'commenting does not make a document member');
  });

  test("the writer's name and email are kept per comment", async () => {
    const th = await thread([
      { commentText: 'a', from: { userId: 'same', name: 'First Name', email: 'first@example.com' } },
      { commentText: 'b', from: { userId: 'same', name: 'Second Name', email: 'second@example.com' } },
    ]);
    const list = await getAll(th);
    assert.deepEqual(list[0].from, { email: 'first@example.com', name: 'First Name', userId: 'same' });
    assert.deepEqual(list[1].from, { email: 'second@example.com', name: 'Second Name', userId: 'same' });
  });

  test('optional annotation members (location, locationId, context, status) are accepted; null means absent', async () => {
    const org = uniq('org');
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        {
          annotationId: 'withAll',
          location: { id: 'loc', page: 3, nested: { a: [1, 2] } },
          locationId: 'loc-1',
          context: { any: 'thing' },
          status: { id: 'RESOLVED', name: 'Resolved', type: 'terminal' },
          commentData: [c('x')],
        },
        { annotationId: 'withNulls', location: null, locationId: null, context: null, status: null, commentData: [c('y')] },
        { annotationId: 'empties', location: {}, context: {}, status: {}, commentData: [c('z')] },
      ],
    });
    for (const k of ['withAll', 'withNulls', 'empties']) assert.equal(r.data[k].success, true, JSON.stringify(r));
    assert.equal((await getAll({ organizationId: org, documentId: 'doc', annotationId: 'withNulls' }))[0].commentText, 'y');
  });

  test('unknown members anywhere are ignored', async () => {
    const org = uniq('org');
    const r = await t.a.post(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      source: 'web',
      extra: { deep: [1] },
      commentAnnotations: [
        {
          annotationId: 'ann',
          color: 'red',
          targetType: 'text',
          commentData: [
            {
              commentText: 'x',
              from: { userId: 'u', photoUrl: 'p', role: 'admin' },
              reactions: [],
              attachments: [{ a: 1 }],
              status: 'deleted',
              type: 'audio',
              editedAt: 1,
              revision: 'never',
            },
          ],
        },
      ],
    });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json.result.data.ann.commentIds, [1], r.body);
    const add = await t.a.post(PATHS.commentsAdd, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 'ann',
      foo: 1,
      commentData: [{ commentHtml: '<p>y</p>', from: { userId: 'u', extra: true }, bar: null }],
    });
    assert.equal(add.status, 200, add.body);
    const get = await t.a.post(PATHS.commentsGet, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 'ann',
      pageSize: 1,
      includeDeleted: true,
    });
    assert.equal(get.status, 200, get.body);
    const list = get.json.result.data;
    assert.equal(list.length, 2, get.body);
    assert.equal(list[0].status, 'added', "status is the server's, not the writer's");
    assert.equal(list[0].type, 'text', "type is the server's, not the writer's");
    assert.notEqual(list[0].createdAt, 1);
    assert.match(list[0].lastUpdated, ISO_MS);
    assert.deepEqual(list[0].from, { email: '', name: '', userId: 'u' });
  });

  test('limits accepted: ids of 256 astral code points, commentData of 1000, commentIds/userIds filters of 1000', async () => {
    const big = '😀'.repeat(256);
    const r = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: big,
      documentId: big,
      commentAnnotations: [
        {
          annotationId: big,
          locationId: big,
          commentData: [{ commentText: 'astral', from: { userId: big, name: '😀'.repeat(256) } }],
        },
      ],
    });
    assert.deepEqual(r.data[big]?.commentIds, [1]);
    assert.deepEqual(
      (await t.a.ok(PATHS.commentsAdd, { organizationId: big, documentId: big, annotationId: big, commentData: [c('two', big)] }))
        .data,
      [2],
    );
    const got = await getAll({ organizationId: big, documentId: big, annotationId: big }, { userIds: [big] });
    assert.equal(got.length, 2);
    assert.equal(got[0].from.userId, big);

    const many = Array.from({ length: 1000 }, (_, i) => c(`m${i}`, `user${i % 7}`));
    const th = await thread(many);
    assert.deepEqual(
      th.entry.commentIds,
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    const add = await t.a.ok(PATHS.commentsAdd, { ...th, commentData: many });
    assert.equal(add.data.length, 1000);
    assert.equal(add.data[0], 1001);
    assert.equal(add.data[999], 2000);
    assert.equal((await getAll(th)).length, 2000);
    const wanted = Array.from({ length: 1000 }, (_, i) => 2000 - i);
    const filtered = await getAll(th, { commentIds: wanted });
    assert.deepEqual(ids(filtered), wanted);
    const userIds = Array.from({ length: 1000 }, (_, i) => `user${i}`);
    assert.equal((await getAll(th, { userIds })).length, 2000);
  });

  test('1000 annotations in one request', async () => {
    const org = uniq('org');
    const commentAnnotations = Array.from({ length: 1000 }, (_, i) => ({ annotationId: `bulk-${i}`, commentData: [c(`b${i}`)] }));
    const r = await t.a.ok(PATHS.annotationsAdd, { organizationId: org, documentId: 'doc', commentAnnotations });
    assert.equal(Object.keys(r.data).length, 1000);
    assert.ok(Object.values(r.data).every((e: any) => e.success === true && e.commentIds.length === 1));
    assert.equal((await getAll({ organizationId: org, documentId: 'doc', annotationId: 'bulk-999' }))[0].commentText, 'b999');
  });
});

describe('comment timestamps from an injected clock', () => {
  let now = Date.UTC(2024, 5, 20, 9, 53, 42, 258);
  let app: TestApp;
  before(async () => {
    app = await makeTestApp({ clock: () => now });
  });
  after(async () => {
    await app.close();
  });

  test("createdAt is the clock's integer ms and lastUpdated its ISO form with milliseconds", async () => {
    now = Date.UTC(2024, 5, 20, 9, 53, 42, 258);
    await app.a.ok(PATHS.annotationsAdd, {
      organizationId: 'o',
      documentId: 'd',
      commentAnnotations: [{ annotationId: 'a', commentData: [c('x'), c('y')] }],
    });
    now = Date.UTC(2025, 0, 2, 3, 4, 5, 6);
    await app.a.ok(PATHS.commentsAdd, { organizationId: 'o', documentId: 'd', annotationId: 'a', commentData: [c('z')] });
    const got = await app.a.ok(PATHS.commentsGet, { organizationId: 'o', documentId: 'd', annotationId: 'a' });
    assert.deepEqual(
      got.data.map((x: any) => [x.commentId, x.createdAt, x.lastUpdated]),
      [
        [1, Date.UTC(2024, 5, 20, 9, 53, 42, 258), '2024-06-20T09:53:42.258Z'],
        [2, Date.UTC(2024, 5, 20, 9, 53, 42, 258), '2024-06-20T09:53:42.258Z'],
        [3, Date.UTC(2025, 0, 2, 3, 4, 5, 6), '2025-01-02T03:04:05.006Z'],
      ],
      JSON.stringify(got),
    );
  });

  test('a whole-second time still shows .000 milliseconds', async () => {
    now = Date.UTC(2030, 11, 31, 23, 59, 59, 0);
    await app.a.ok(PATHS.annotationsAdd, {
      organizationId: 'o',
      documentId: 'd',
      commentAnnotations: [{ annotationId: 'b', commentData: [c('x')] }],
    });
    const got = await app.a.ok(PATHS.commentsGet, { organizationId: 'o', documentId: 'd', annotationId: 'b' });
    assert.equal(got.data[0].lastUpdated, '2030-12-31T23:59:59.000Z');
    assert.equal(got.data[0].createdAt, Date.UTC(2030, 11, 31, 23, 59, 59, 0));
  });
});
