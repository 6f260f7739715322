// Comment threads read, changed, deleted, counted and marked read: credentials (401 before 400),
// tenant isolation for every thread operation, the markup that docs/api.md "Comment HTML" lets through the
// sanitizer, hostile ids, and error messages that say nothing internal (docs/api.md, "Wire format", "Credentials",
// "Comment threads" and "What always holds").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertNoLeak,
  BAD_CREDENTIALS,
  badCredentialCases,
  expectBadCredentials,
  expectMissingCredentials,
  FORBIDDEN_MARKUP,
  raw,
} from '../helpers/security.js';
import { expectError, makeTestApp, PATHS, type Caller, type Reply, type TestApp } from '../helpers/app.js';
import { elements, js, notFound, RESOLVED, say, THREAD_OPS, uniq } from '../helpers/threads.js';

let t: TestApp;

/** Threads t1 (two comments, by p then q), t2 (by q) and t3 (resolved, by p) in org/doc of a caller. */
async function fixture(caller: Caller = t.a, organizationId = uniq('org')) {
  const r = await caller.ok(PATHS.annotationsAdd, {
    organizationId,
    documentId: 'doc',
    commentAnnotations: [
      {
        annotationId: 't1',
        locationId: 'l1',
        assignedTo: { userId: 'q' },
        commentData: [
          say('secret 1', 'p', { taggedUserContacts: [{ userId: 'm', contact: { userId: 'm' } }] }),
          say('secret 1b', 'q'),
        ],
      },
      { annotationId: 't2', locationId: 'l2', commentData: [say('secret 2', 'q')] },
      { annotationId: 't3', status: RESOLVED, commentData: [say('secret 3', 'p')] },
    ],
  });
  for (const id of ['t1', 't2', 't3']) assert.equal(r.data[id]?.success, true, js(r));
  return organizationId;
}

/** Everything of one organization that the operations could show or change, as tenant `caller` reads it. */
async function state(org: string, caller: Caller = t.a) {
  return {
    doc: (await caller.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc' })).data,
    counts: await Promise.all(
      ['u', 'p', 'q'].map(
        async (userId) => (await caller.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc'], userId })).data,
      ),
    ),
  };
}

function dataFor(path: string, org: string): Record<string, unknown> {
  switch (path) {
    case PATHS.annotationsGet:
      return { organizationId: org, documentId: 'doc' };
    case PATHS.annotationsUpdate:
      return { organizationId: org, documentId: 'doc', updatedData: { status: RESOLVED, context: { by: 'intruder' } } };
    case PATHS.annotationsDelete:
      return { organizationId: org, documentId: 'doc' };
    case PATHS.annotationsCount:
      return { organizationId: org, documentIds: ['doc'], userId: 'u' };
    case PATHS.annotationsRead:
      return { organizationId: org, documentId: 'doc', userId: 'u' };
    case PATHS.commentsUpdate:
      return {
        organizationId: org,
        documentId: 'doc',
        annotationId: 't1',
        commentIds: [1, 2],
        updatedData: { commentText: 'pwned' },
      };
    case PATHS.commentsDelete:
      return { organizationId: org, documentId: 'doc', annotationId: 't1' };
    default:
      throw new Error(path);
  }
}

const TAGS = new Set('p br b strong i em u s del code pre blockquote ul ol li h1 h2 h3 h4 h5 h6 span a div img'.split(' '));
const RAW_FORBIDDEN = [...FORBIDDEN_MARKUP, /<picture/i, /<source/i];
/** Whitespace and control characters, which browsers skip inside a URL scheme. */
const squeeze = (s: string) =>
  [...s]
    .filter((ch) => ch.charCodeAt(0) > 0x20 && !/\s/.test(ch))
    .join('')
    .toLowerCase();

/** Problems with sanitized HTML under docs/api.md "Comment HTML" (empty when it is safe). */
function problems(html: string): string[] {
  const out: string[] = [];
  for (const bad of RAW_FORBIDDEN) if (bad.test(html)) out.push(`contains ${bad}`);
  if (/javascript:|vbscript:/.test(squeeze(html))) out.push('contains javascript:/vbscript:');
  for (const { name, attribs } of elements(html)) {
    if (!TAGS.has(name)) out.push(`element <${name}>`);
    for (const [k, v] of Object.entries(attribs)) {
      const ok =
        (name === 'a' && k === 'href') ||
        (name === 'img' && ['src', 'alt', 'width', 'height'].includes(k)) ||
        (name === 'span' && (k === 'class' || /^data-[a-z0-9_.:-]+$/i.test(k)));
      if (!ok) out.push(`attribute ${k} on <${name}>`);
      if (/javascript:|vbscript:/.test(squeeze(v))) out.push(`attribute ${k}=${JSON.stringify(v)}`);
      if (name === 'img' && k === 'src') {
        let protocol = '';
        try {
          protocol = new URL(v).protocol;
        } catch {
          protocol = 'unparsable';
        }
        if (!/^https?:\/\/[^/\\]/i.test(v.trim()) || !['http:', 'https:'].includes(protocol))
          out.push(`img src ${JSON.stringify(v)}`);
      }
      if (name === 'a' && k === 'href') {
        let protocol = '';
        try {
          protocol = new URL(v).protocol;
        } catch {
          protocol = 'unparsable';
        }
        if (!['http:', 'https:', 'mailto:'].includes(protocol)) out.push(`a href ${JSON.stringify(v)}`);
      }
    }
  }
  return out;
}

/**
 * XSS vectors aimed at what docs/api.md "Comment HTML" allows beyond formatting: div, img src/alt/width/height,
 * span class and data-*.
 */
const VECTORS = [
  '<img src="javascript:alert(1)">',
  '<img src="JaVaScRiPt:alert(1)" alt="a">',
  '<img src=" javascript:alert(1)">',
  '<img src="java&#x09;script:alert(1)">',
  '<img src="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">',
  '<img src="vbscript:msgbox(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">',
  '<img src="//evil.example/x.png">',
  '<img src="\\\\evil.example/x.png">',
  '<img src="/relative/x.png">',
  '<img src="x.png">',
  '<img src="ftp://evil.example/x.png">',
  '<img src="https://ok.example/x.png" onerror="alert(1)" onload="alert(2)">',
  '<img src=x onerror=alert(1)>',
  '<img/src="https://ok.example/x.png"/onerror=alert(1)>',
  '<img src="https://ok.example/x.png" style="background:url(javascript:alert(1))">',
  '<img src="https://ok.example/x.png" srcset="javascript:alert(1) 1x, https://evil.example/y.png 2x">',
  '<img src="https://ok.example/x.png" alt="&quot; onerror=&quot;alert(1)">',
  '<img src="https://ok.example/x.png" alt=\'" onerror="alert(1)\'>',
  '<img src="https://ok.example/x.png" alt="<script>alert(1)</script>">',
  '<img src="https://ok.example/x.png" width="javascript:alert(1)" height="1 onerror=alert(1)">',
  '<img src="https://ok.example/x.png" usemap="#m" ismap longdesc="javascript:alert(1)" title="t" id="i">',
  '<img src="https://ok.example/x.png" class="c" data-x="1">',
  '<div style="background:url(javascript:alert(1))" onclick="alert(1)" onmouseover="alert(2)">d</div>',
  '<div><script>alert(1)</script></div>',
  '<div class="x" id="y" title="z" data-x="javascript:alert(1)">d</div>',
  '<div><iframe src="javascript:alert(1)"></iframe><img src="https://ok.example/x.png"></div>',
  '<span class="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">s</span>',
  '<span class="\\"><script>alert(1)</script>">s</span>',
  '<span class=\'x" onmouseover="alert(1)\'>s</span>',
  '<span class="x" style="x:expression(alert(1))" onload="alert(1)">s</span>',
  '<span data-href="javascript:alert(1)" data-x="JAVASCRIPT:alert(1)">s</span>',
  '<span data-x="&#106;avascript:alert(1)" data-y="java&#x0A;script:alert(1)">s</span>',
  '<span data-x="vbscript:msgbox(1)">v</span>',
  '<span data-onload="alert(1)">d</span>',
  '<span class="mention" data-user-id="u1"><img src="https://ok.example/a.png" onerror="alert(1)"></span>',
  '<svg><img src="https://ok.example/x.png" onerror="alert(1)"></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<picture><source srcset="javascript:alert(1)"><img src="https://ok.example/x.png"></picture>',
  '<a href="https://ok.example/" class="c" data-x="javascript:alert(1)">a</a>',
  '<div><a href="javascript:alert(1)"><img src="https://ok.example/x.png"></a></div>',
  '<noscript><img src="https://ok.example/x.png" alt="</noscript><img src=x onerror=alert(1)>"></noscript>',
];

describe('comment threads: security', () => {
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => {
    await t.close();
  });

  // ---- credentials: 401 before 400 ----

  test('missing credential headers: 401 naming the header, for every new operation, even with a garbage body', async () => {
    const org = await fixture();
    const before = await state(org);
    for (const path of THREAD_OPS) {
      for (const body of [{ data: dataFor(path, org) }, '{{{not json', '', { data: 'garbage' }, '[1,2]']) {
        await expectMissingCredentials(t, path, body);
        const emptyKey = await raw(t, path, { 'x-service-api-key': '', 'x-service-auth-token': t.a.creds.authToken }, body);
        expectError(emptyKey, 401, 'UNAUTHENTICATED', `${path} empty key`);
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('wrong or mismatched credentials: the one 401 message, before the body is looked at; nothing changed', async () => {
    const org = await fixture();
    const before = await state(org);
    for (const path of THREAD_OPS) {
      for (const [label, headers] of badCredentialCases(t)) {
        await expectBadCredentials(t, path, label, headers, { data: dataFor(path, org) });
        const invalid = await raw(t, path, headers, { data: { organizationId: 5, documentIds: 'x', pageSize: 0 } });
        assert.equal(expectError(invalid, 401, 'UNAUTHENTICATED', `${path} ${label} invalid data`), BAD_CREDENTIALS);
      }
    }
    assert.deepEqual(await state(org), before, 'nothing changed by any refused request');
  });

  test('credential header names are case-insensitive on the new operations', async () => {
    const org = await fixture();
    const r = await raw(
      t,
      PATHS.annotationsCount,
      { 'X-Service-Api-Key': t.a.creds.apiKey, 'X-SERVICE-AUTH-TOKEN': t.a.creds.authToken },
      { data: dataFor(PATHS.annotationsCount, org) },
    );
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json.result.data, { doc: { total: 3, unread: 3 } });
  });

  // ---- tenant isolation ----

  test("isolation: b naming a's organization, document and annotation ids reads nothing", async () => {
    const org = await fixture();
    const list = await t.b.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc' });
    assert.deepEqual(list.data, [], js(list));
    assert.equal(list.pageToken, undefined);
    const paged = await t.b.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize: 1 });
    assert.deepEqual(paged.data, []);
    const byId = await t.b.ok(PATHS.annotationsGet, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['t1', 't2', 't3'],
    });
    assert.deepEqual(byId.data, [null, null, null], js(byId));
    for (const filters of [{ locationIds: ['l1'] }, { userIds: ['p', 'q'] }, { statusIds: ['OPEN', 'RESOLVED'] }]) {
      assert.deepEqual((await t.b.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', ...filters })).data, []);
    }
    const counts = await t.b.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'u' });
    assert.deepEqual(counts.data, { doc: { total: 0, unread: 0 } }, js(counts));
    const forP = await t.b.ok(PATHS.annotationsCount, {
      organizationId: org,
      documentIds: ['doc'],
      userId: 'p',
      statusIds: ['RESOLVED'],
    });
    assert.deepEqual(forP.data, { doc: { total: 0, unread: 0 } });
    const comments = await t.b.ok(PATHS.commentsGet, { organizationId: org, documentId: 'doc', annotationId: 't1' });
    assert.deepEqual(comments.data, []);
  });

  test("isolation: b cannot change, delete or mark a's threads and comments; a sees everything as it was", async () => {
    const org = await fixture();
    const before = await state(org);
    const upd = await t.b.ok(PATHS.annotationsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationIds: ['t1', 't2'],
      updatedData: { status: RESOLVED },
    });
    assert.deepEqual(upd.data, { t1: notFound('t1'), t2: notFound('t2') }, js(upd));
    for (const filters of [{}, { locationIds: ['l1'] }, { userIds: ['p'] }, { annotationIds: [] }]) {
      const r = await t.b.ok(PATHS.annotationsUpdate, {
        organizationId: org,
        documentId: 'doc',
        ...filters,
        updatedData: { context: { owned: true }, location: null },
      });
      assert.deepEqual(r.data, {}, `b update ${js(filters)}: ${js(r)}`);
    }
    const del = await t.b.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['t1', 't3'] });
    assert.deepEqual(del.data, { t1: notFound('t1'), t3: notFound('t3') }, js(del));
    for (const filters of [{}, { locationIds: ['l1', 'l2'] }, { userIds: ['p', 'q'] }]) {
      const r = await t.b.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', ...filters });
      assert.deepEqual(r.data, {}, `b delete ${js(filters)}: ${js(r)}`);
    }
    expectError(
      await t.b.post(PATHS.commentsUpdate, {
        organizationId: org,
        documentId: 'doc',
        annotationId: 't1',
        commentIds: [1, 2],
        updatedData: { commentText: 'pwned', from: { userId: 'b' } },
      }),
      404,
      'NOT_FOUND',
      'b comments/update',
    );
    expectError(
      await t.b.post(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 't1', commentIds: [1] }),
      404,
      'NOT_FOUND',
      'b comments/delete listed',
    );
    expectError(
      await t.b.post(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 't2' }),
      404,
      'NOT_FOUND',
      'b comments/delete all',
    );
    const read = await t.b.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'u' });
    assert.deepEqual(read.data, { read: 0 }, js(read));
    const readIds = await t.b.ok(PATHS.annotationsRead, {
      organizationId: org,
      documentId: 'doc',
      userId: 'p',
      annotationIds: ['t1', 't2', 't3'],
    });
    assert.deepEqual(readIds.data, { read: 0 }, js(readIds));
    // Tenant a: nothing changed, nothing deleted, nothing marked read.
    assert.deepEqual(await state(org), before, 'a sees its threads exactly as before');
    const counts = await t.a.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'u' });
    assert.deepEqual(counts.data, { doc: { total: 3, unread: 3 } }, "b's read marked nothing of a's");
  });

  test('isolation: the same ids in two tenants are two threads; each tenant changes only its own', async () => {
    const org = uniq('org');
    await fixture(t.a, org);
    await fixture(t.b, org);
    const aBefore = await state(org, t.a);
    // b changes, marks and deletes everything of its own.
    await t.b.ok(PATHS.annotationsUpdate, { organizationId: org, documentId: 'doc', updatedData: { status: RESOLVED } });
    await t.b.ok(PATHS.commentsUpdate, {
      organizationId: org,
      documentId: 'doc',
      annotationId: 't1',
      commentIds: [1],
      updatedData: { commentText: 'b edit' },
    });
    await t.b.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'u' });
    assert.deepEqual((await t.b.ok(PATHS.annotationsCount, { organizationId: org, documentIds: ['doc'], userId: 'u' })).data, {
      doc: { total: 3, unread: 0 },
    });
    await t.b.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 't2' });
    assert.deepEqual(await state(org, t.a), aBefore, "b's writes on its own threads leave a's alone");
    const bDel = await t.b.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc' });
    assert.deepEqual(Object.keys(bDel.data).sort(), ['t1', 't2', 't3']);
    assert.deepEqual(await state(org, t.a), aBefore, "b deleting every thread of its document leaves a's");
    // And the other way round.
    await fixture(t.b, org);
    const bBefore = await state(org, t.b);
    await t.a.ok(PATHS.annotationsRead, { organizationId: org, documentId: 'doc', userId: 'u' });
    await t.a.ok(PATHS.annotationsDelete, { organizationId: org, documentId: 'doc', annotationIds: ['t1'] });
    await t.a.ok(PATHS.commentsDelete, { organizationId: org, documentId: 'doc', annotationId: 't2' });
    assert.deepEqual(await state(org, t.b), bBefore, "a's writes leave b's threads alone");
  });

  test("isolation: b's profiles never resolve a's from, assignedTo or tagged contacts", async () => {
    const org = await fixture();
    await t.b.ok(PATHS.usersAdd, {
      organizationId: org,
      users: ['p', 'q', 'm'].map((userId) => ({ userId, name: `B ${userId}`, email: `${userId}@b.example` })),
    });
    const [t1] = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', annotationIds: ['t1'] })).data;
    assert.deepEqual(t1.from, { email: '', name: '', userId: 'p' }, js(t1));
    assert.equal(t1.assignedTo.name, '', js(t1.assignedTo));
    assert.equal(t1.comments[0].taggedUserContacts[0].contact.name, '', js(t1.comments[0]));
    assert.ok(!JSON.stringify(t1).includes('b.example'), js(t1));
  });

  test("isolation: a's pageToken gives b nothing of a's", async () => {
    const org = await fixture();
    await fixture(t.b, org);
    const aFirst = await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', pageSize: 1 });
    assert.equal(typeof aFirst.pageToken, 'string', js(aFirst));
    const r = await t.b.post(PATHS.annotationsGet, {
      organizationId: org,
      documentId: 'doc',
      pageSize: 10,
      pageToken: aFirst.pageToken,
    });
    if (r.status === 200) {
      for (const x of r.json.result.data) assert.equal(x.metadata.apiKey, t.b.creds.apiKey, r.body);
      assert.ok(r.json.result.data.length <= 3, r.body);
    } else {
      expectError(r, 400, 'INVALID_ARGUMENT', 'a foreign token may be refused');
    }
    const aRest = await t.a.ok(PATHS.annotationsGet, {
      organizationId: org,
      documentId: 'doc',
      pageSize: 10,
      pageToken: aFirst.pageToken,
    });
    assert.equal(aRest.data.length, 2, js(aRest));
    for (const x of [...aFirst.data, ...aRest.data]) assert.equal(x.metadata.apiKey, t.a.creds.apiKey);
  });

  // ---- markup newly allowed by 10.2 ----

  test('XSS aimed at div, img and span attributes never comes back (add, comments/add, comments/update)', async () => {
    const org = uniq('org');
    const where = { organizationId: org, documentId: 'doc', annotationId: 'xss' };
    const add = await t.a.ok(PATHS.annotationsAdd, {
      organizationId: org,
      documentId: 'doc',
      commentAnnotations: [
        { annotationId: 'xss', commentData: VECTORS.map((commentHtml) => ({ commentHtml, from: { userId: 'x' } })) },
      ],
    });
    assert.equal(add.data.xss.commentIds.length, VECTORS.length, js(add));
    await t.a.ok(PATHS.commentsAdd, {
      ...where,
      commentData: VECTORS.map((commentHtml) => ({ commentHtml, commentText: 'given', from: { userId: 'x' } })),
    });
    const failures: string[] = [];
    const check = (source: string, c: any, via: string) => {
      const found = problems(c.commentHtml);
      if (found.length)
        failures.push(`${via}: ${JSON.stringify(source)} -> ${JSON.stringify(c.commentHtml)}: ${found.join('; ')}`);
    };
    let list = (await t.a.ok(PATHS.commentsGet, where)).data as any[];
    assert.equal(list.length, VECTORS.length * 2);
    list.forEach((c, i) => {
      check(VECTORS[i % VECTORS.length]!, c, i < VECTORS.length ? 'commentannotations/add' : 'comments/add');
    });
    // Derived text carries no script body.
    const scriptInDiv = list[VECTORS.indexOf('<div><script>alert(1)</script></div>')];
    assert.doesNotMatch(scriptInDiv.commentText, /alert/, js(scriptInDiv));
    // comments/update, one vector at a time on comment 1; the thread read shows the same.
    for (const source of VECTORS) {
      await t.a.ok(PATHS.commentsUpdate, { ...where, commentIds: [1], updatedData: { commentHtml: source } });
      const [th] = (await t.a.ok(PATHS.annotationsGet, { organizationId: org, documentId: 'doc', annotationIds: ['xss'] })).data;
      check(source, th.comments[0], 'comments/update');
    }
    assert.deepEqual(failures, [], `${failures.length} unsafe outputs:\n${failures.join('\n')}`);
    // What is allowed still works beside the hostile parts.
    list = (await t.a.ok(PATHS.commentsGet, where)).data as any[];
    const mentionSource =
      '<span class="mention" data-user-id="u1"><img src="https://ok.example/a.png" onerror="alert(1)"></span>';
    const mention = list[VECTORS.indexOf(mentionSource)];
    assert.deepEqual(
      elements(mention.commentHtml).map((e) => [e.name, e.attribs]),
      [
        ['span', { class: 'mention', 'data-user-id': 'u1' }],
        ['img', { src: 'https://ok.example/a.png' }],
      ],
      mention.commentHtml,
    );
  });

  // ---- hostile ids ----

  test('SQL-looking ids, LIKE wildcards, other case and extra spaces are plain strings that match nothing', async () => {
    const org = await fixture();
    const before = await state(org);
    const hostile = [
      "' OR '1'='1",
      "t1' --",
      '%',
      '_',
      '*',
      't%',
      't_',
      '") OR 1=1 --',
      'null',
      '1) OR (1=1',
      '\\',
      'T1',
      't1 ',
      ' t1',
    ];
    const where = { organizationId: org, documentId: 'doc' };
    const byIds = await t.a.ok(PATHS.annotationsGet, { ...where, annotationIds: hostile });
    assert.deepEqual(
      byIds.data,
      hostile.map(() => null),
      js(byIds),
    );
    for (const filters of [{ locationIds: hostile }, { userIds: hostile }, { statusIds: [...hostile, 'open', 'OPEN '] }]) {
      assert.deepEqual((await t.a.ok(PATHS.annotationsGet, { ...where, ...filters })).data, [], js(filters));
    }
    for (const filters of [{ locationIds: hostile }, { userIds: hostile }]) {
      const r = await t.a.ok(PATHS.annotationsUpdate, { ...where, ...filters, updatedData: { status: RESOLVED } });
      assert.deepEqual(r.data, {}, js(r));
    }
    const upd = await t.a.ok(PATHS.annotationsUpdate, { ...where, annotationIds: hostile, updatedData: { status: RESOLVED } });
    assert.ok(
      Object.values(upd.data).every((e: any) => e.success === false),
      js(upd),
    );
    assert.equal(Object.keys(upd.data).length, hostile.length, js(upd));
    for (const filters of [{ annotationIds: hostile }, { locationIds: hostile }, { userIds: hostile }]) {
      const del = await t.a.ok(PATHS.annotationsDelete, { ...where, ...filters });
      assert.ok(
        Object.values(del.data).every((e: any) => e.success === false),
        js(del),
      );
    }
    assert.deepEqual((await t.a.ok(PATHS.annotationsRead, { ...where, userId: 'u', annotationIds: hostile })).data, { read: 0 });
    const cnt = await t.a.ok(PATHS.annotationsCount, { organizationId: org, documentIds: hostile, userId: 'u' });
    for (const h of hostile) assert.deepEqual(cnt.data[h], { total: 0, unread: 0 }, `${h}: ${js(cnt)}`);
    const cntStatus = await t.a.ok(PATHS.annotationsCount, {
      organizationId: org,
      documentIds: ['doc'],
      userId: 'u',
      statusIds: hostile,
    });
    assert.deepEqual(cntStatus.data, { doc: { total: 0, unread: 0 } });
    for (const h of hostile) {
      expectError(
        await t.a.post(PATHS.commentsUpdate, { ...where, annotationId: h, commentIds: [1], updatedData: { commentText: 'x' } }),
        404,
        'NOT_FOUND',
        h,
      );
      expectError(await t.a.post(PATHS.commentsDelete, { ...where, annotationId: h }), 404, 'NOT_FOUND', h);
      const other = await t.a.ok(PATHS.annotationsGet, { organizationId: `${org}${h}`, documentId: 'doc' });
      assert.deepEqual(other.data, [], h);
    }
    assert.deepEqual(await state(org), before, 'nothing changed');
  });

  test('__proto__, constructor and friends work as ordinary ids in keyed answers', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
      const where = { organizationId: name, documentId: name };
      const add = await t.a.post(PATHS.annotationsAdd, {
        ...where,
        commentAnnotations: [{ annotationId: name, commentData: [say('x', name), say('y', name)] }],
      });
      assert.equal(add.status, 200, add.body);
      const own = (o: unknown, k: string) => Object.getOwnPropertyDescriptor(o, k)?.value;
      const got = await t.a.ok(PATHS.annotationsGet, { ...where, annotationIds: [name, 'x'] });
      assert.equal(got.data[0]?.annotationId, name, js(got));
      assert.equal(got.data[1], null);
      const upd = await t.a.ok(PATHS.annotationsUpdate, {
        ...where,
        annotationIds: [name],
        updatedData: { context: { n: name } },
      });
      assert.deepEqual(own(upd.data, name), { success: true, id: name, message: 'Annotations updated successfully' }, js(upd));
      const cnt = await t.a.ok(PATHS.annotationsCount, { organizationId: name, documentIds: [name, 'other'], userId: name });
      assert.deepEqual(own(cnt.data, name), { total: 1, unread: 0 }, js(cnt));
      assert.deepEqual(own(cnt.data, 'other'), { total: 0, unread: 0 }, js(cnt));
      assert.deepEqual((await t.a.ok(PATHS.annotationsRead, { ...where, userId: name, annotationIds: [name] })).data, {
        read: 1,
      });
      const cupd = await t.a.ok(PATHS.commentsUpdate, {
        ...where,
        annotationId: name,
        commentIds: [1],
        updatedData: { from: { userId: name }, taggedUserContacts: [{ userId: name }] },
      });
      assert.deepEqual(own(cupd.data, '1'), { success: true, id: 1, message: 'Updated successfully' });
      const cdel = await t.a.ok(PATHS.commentsDelete, { ...where, annotationId: name, commentIds: [2] });
      assert.deepEqual(own(cdel.data, '2'), { success: true, id: 2, message: 'Deleted successfully' });
      const ghost = await t.a.ok(PATHS.annotationsDelete, {
        organizationId: name,
        documentId: 'elsewhere',
        annotationIds: [name],
      });
      assert.deepEqual(own(ghost.data, name), { success: false, id: name, message: 'Annotation not found.' }, js(ghost));
      const del = await t.a.ok(PATHS.annotationsDelete, { ...where, annotationIds: [name] });
      assert.deepEqual(own(del.data, name), { success: true, id: name, message: 'Deleted Successfully' }, js(del));
      assert.deepEqual((await t.a.ok(PATHS.annotationsGet, where)).data, []);
    }
    for (const k of ['success', 'total', 'unread', 'read', 'polluted']) {
      assert.equal(({} as Record<string, unknown>)[k], undefined, `Object.prototype.${k} polluted`);
    }
  });

  test('__proto__ keys inside updatedData and filters smuggle nothing', async () => {
    const org = await fixture();
    const before = await state(org);
    const payload =
      `{"data":{"organizationId":"${org}","documentId":"doc","annotationIds":["t2"],` +
      `"__proto__":{"annotationIds":["t1","t3"],"locationIds":["l1"]},` +
      `"updatedData":{"__proto__":{"status":{"id":"PWNED"}},"constructor":{"prototype":{"polluted":true}},"context":{"ok":1}}}}`;
    const r = await t.a.post(PATHS.annotationsUpdate, null, { raw: payload, headers: { 'content-type': 'application/json' } });
    assert.ok(r.status === 200 || r.status === 400, `${r.status} ${r.body}`);
    const after = await state(org);
    if (r.status === 200) {
      assert.deepEqual(Object.keys(r.json.result.data), ['t2'], r.body);
      const t2 = (after.doc as any[]).find((x) => x.annotationId === 't2');
      assert.deepEqual(t2.context, { ok: 1 });
      assert.deepEqual(t2.status.id, 'OPEN', 'no status from __proto__');
      for (const id of ['t1', 't3']) {
        const th = (after.doc as any[]).find((x) => x.annotationId === id);
        const old = (before.doc as any[]).find((x) => x.annotationId === id);
        assert.deepEqual(th, old, `${id} untouched`);
      }
    } else {
      assert.deepEqual(after, before);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const del = await t.a.post(PATHS.annotationsDelete, null, {
      raw: `{"data":{"organizationId":"${org}","documentId":"doc","annotationIds":["ghost"],"__proto__":{"annotationIds":[]}}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.ok(del.status === 200 || del.status === 400, del.body);
    assert.equal(((await state(org)).doc as any[]).length, 3, 'a __proto__ member did not turn the delete into delete-all');
  });

  // ---- nothing internal in errors, no 500 ----

  test('deeply nested updatedData objects and huge numbers never cause a 500 or a leak', async () => {
    const org = await fixture();
    let deep = '1';
    for (let i = 0; i < 20000; i++) deep = `{"a":${deep}}`;
    const headers = { 'content-type': 'application/json' };
    const bodies: [string, string][] = [];
    for (const member of ['location', 'context', 'priority', 'targetElement', 'status']) {
      bodies.push([
        PATHS.annotationsUpdate,
        `{"data":{"organizationId":"${org}","documentId":"doc","annotationIds":["t1"],"updatedData":{"${member}":${deep}}}}`,
      ]);
    }
    bodies.push(
      [PATHS.annotationsGet, `{"data":{"organizationId":"${org}","documentId":"doc","pageSize":1e400}}`],
      [PATHS.annotationsGet, `{"data":{"organizationId":"${org}","documentId":"doc","pageSize":-0}}`],
      [PATHS.annotationsGet, `{"data":{"organizationId":"${org}","documentId":"doc","pageToken":"${'A'.repeat(100_000)}"}}`],
      [
        PATHS.annotationsGet,
        `{"data":{"organizationId":"${org}","documentId":"doc","pageToken":"'; SELECT * FROM threads; --"}}`,
      ],
      [PATHS.commentsDelete, `{"data":{"organizationId":"${org}","documentId":"doc","annotationId":"t1","commentIds":[1e400]}}`],
      [
        PATHS.commentsDelete,
        `{"data":{"organizationId":"${org}","documentId":"doc","annotationId":"t1","commentIds":[9007199254740993]}}`,
      ],
      [PATHS.annotationsCount, `{"data":{"organizationId":"${org}","documentIds":["doc"],"userId":"u","statusIds":[${deep}]}}`],
      [
        PATHS.annotationsAdd,
        `{"data":{"organizationId":"${org}","documentId":"d2","commentAnnotations":[{"createdAt":1e400,` +
          `"commentData":[{"commentText":"x","from":{"userId":"u"}}]}]}}`,
      ],
      [
        PATHS.annotationsAdd,
        `{"data":{"organizationId":"${org}","documentId":"d2","commentAnnotations":[{"commentData":` +
          `[{"commentText":"x","lastUpdated":-1e400,"from":{"userId":"u"}}]}]}}`,
      ],
      [
        PATHS.commentsUpdate,
        `{"data":{"organizationId":"${org}","documentId":"doc","annotationId":"t1","commentIds":[1],` +
          `"updatedData":{"taggedUserContacts":[{"userId":"m","contact":${deep}}]}}}`,
      ],
    );
    for (const [path, body] of bodies) {
      const r = await t.a.post(path, null, { raw: body, headers });
      assert.ok([200, 400, 413].includes(r.status), `${path} ${body.slice(0, 120)}: ${r.status} ${r.body.slice(0, 300)}`);
      if (r.status !== 200) assert.equal(r.json?.error?.status, 'INVALID_ARGUMENT', r.body.slice(0, 300));
      assertNoLeak(r, `${path} ${body.slice(0, 80)}`);
    }
  });

  test('error messages of the new operations carry no stack traces, file paths or SQL', async () => {
    const org = await fixture();
    const where = { organizationId: org, documentId: 'doc' };
    const responses: [string, Reply][] = [
      [
        'not found update',
        await t.a.post(PATHS.commentsUpdate, {
          ...where,
          annotationId: 'missing',
          commentIds: [1],
          updatedData: { commentText: 'x' },
        }),
      ],
      ['not found delete', await t.a.post(PATHS.commentsDelete, { ...where, annotationId: 'missing' })],
      ['malformed token', await t.a.post(PATHS.annotationsGet, { ...where, pageToken: "'); DROP TABLE annotations; --" })],
      ['token and ids', await t.a.post(PATHS.annotationsGet, { ...where, annotationIds: ['t1'], pageToken: 'x' })],
      ['status null', await t.a.post(PATHS.annotationsUpdate, { ...where, updatedData: { status: null } })],
      ['empty updatedData', await t.a.post(PATHS.annotationsUpdate, { ...where, updatedData: {} })],
      [
        'from null',
        await t.a.post(PATHS.commentsUpdate, { ...where, annotationId: 't1', commentIds: [1], updatedData: { from: null } }),
      ],
      ['operator object', await t.a.post(PATHS.annotationsDelete, { ...where, annotationIds: [{ $ne: null }] })],
      ['count no documents', await t.a.post(PATHS.annotationsCount, { organizationId: org, documentIds: [], userId: 'u' })],
      ['read no user', await t.a.post(PATHS.annotationsRead, where)],
      [
        'bad time',
        await t.a.post(PATHS.commentsAdd, { ...where, annotationId: 't1', commentData: [say('x', 'p', { createdAt: -5 })] }),
      ],
      [
        'bad creds',
        await raw(t, PATHS.annotationsDelete, { 'x-service-api-key': "'; --", 'x-service-auth-token': '\\' }, { data: where }),
      ],
    ];
    for (const [label, r] of responses) {
      assert.ok(r.status >= 400 && r.status < 500, `${label} should be a 4xx error: ${r.status} ${r.body}`);
      assert.equal(typeof r.json?.error?.message, 'string', `${label}: ${r.body}`);
      assertNoLeak(r, label);
      assert.match(String(r.headers['content-type']), /^application\/json/, `${label}: errors are JSON`);
    }
    // Nothing of the above changed the fixture.
    const after = await state(org);
    assert.equal((after.doc as any[]).length, 3);
    assert.deepEqual(after.counts[0], { doc: { total: 3, unread: 3 } });
  });
});
