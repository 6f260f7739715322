// A tenant's allowed domains as entries are kept (normalizeDomain) and as origins find them
// (originCandidates): an entry allows an origin exactly when its normalized form is one of the
// origin's candidate keys, which is how the store looks it up.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_ORIGIN_LENGTH, normalizeDomain, originCandidates } from '../../src/services/domain-names.js';
import { PreflightAnswers } from '../../src/services/workspace-domains.js';
import type { Store } from '../../src/store/store.js';

const normalized = (entry: string): string => {
  const n = normalizeDomain(entry);
  assert.ok('domain' in n, `${JSON.stringify(entry)}: ${JSON.stringify(n)}`);
  return n.domain;
};
const allows = (entry: string, origin: string): boolean => originCandidates(origin).includes(normalized(entry));

describe('normalizeDomain', () => {
  test("the page's examples, and what a URL carries besides its host goes", () => {
    for (const [entry, domain] of [
      ['https://www.google.com', 'google.com'],
      ['https://*.firebase.com', '*.firebase.com'],
      ['http://localhost:3000', 'localhost'],
      ['127.0.0.1', '127.0.0.1'],
      ['  Example.COM  ', 'example.com'],
      ['example.com', 'example.com'],
      ['https://user:secret@app.example.com:8443/path/x?q=1#frag', 'app.example.com'],
      ['app.example.com/path', 'app.example.com'],
      ['localhost:3000', 'localhost'],
      ['HTTPS://WWW.Example.com', 'example.com'],
      ['http://[::1]:3000', '[::1]'],
      ['http://127.1', '127.0.0.1'],
      ['*.example.com:443', '*.example.com'],
    ] as const)
      assert.equal(normalized(entry), domain, entry);
  });

  test('IDN becomes ASCII; one leading www. goes, where a domain is left', () => {
    assert.equal(normalized('https://Bücher.de'), 'xn--bcher-kva.de');
    assert.equal(normalized('*.bücher.de'), '*.xn--bcher-kva.de');
    assert.equal(normalized('www.www.example.com'), 'www.example.com');
    assert.equal(normalized('www.com'), 'www.com');
    assert.equal(normalized('*.www.example.com'), '*.www.example.com', 'a wildcard keeps its domain as written');
  });

  test('malformed entries say what is wrong', () => {
    for (const [entry, problem] of [
      ['', /empty/],
      ['   ', /empty/],
      ['exa mple.com', /space/],
      ['example.com\t/x', /space|control/],
      ['https://', /neither a URL nor a host/],
      ['ftp://example.com', /scheme ftp:/],
      ['*', /\*/],
      ['https://*', /\*/],
      ['a.*.example.com', /\*/],
      ['*.*.example.com', /\*/],
      ['**.example.com', /\*/],
      ['*example.com', /\*/],
      ['*.com', /top-level/],
      ['*.127.0.0.1', /neither a URL nor a host|IP address/],
      ['*.[::1]', /neither|IP address|\*/],
      ['a..example.com', /not a domain name/],
      ['example.com.', /not a domain name/],
      ['ex!ample.com', /not a domain name/],
      [`${'a'.repeat(64)}.com`, /not a domain name/],
      [`${'abc.'.repeat(64)}com`, /longer than 253/],
    ] as const) {
      const n = normalizeDomain(entry);
      assert.ok('problem' in n, `${JSON.stringify(entry)} was taken as ${JSON.stringify(n)}`);
      assert.match(n.problem, problem, entry);
    }
  });
});

describe('originCandidates and matching', () => {
  test('the candidate keys of an origin: the host, without www., and a wildcard per parent domain', () => {
    assert.deepEqual(originCandidates('https://a.b.example.com'), ['a.b.example.com', '*.b.example.com', '*.example.com']);
    assert.deepEqual(originCandidates('http://www.example.com:8080'), ['www.example.com', 'example.com', '*.example.com']);
    assert.deepEqual(originCandidates('http://localhost:3000'), ['localhost']);
    assert.deepEqual(originCandidates('http://127.0.0.1:5173'), ['127.0.0.1']);
    assert.deepEqual(originCandidates('http://[::1]:3000'), ['[::1]']);
  });

  test('nothing for what is no http(s) origin', () => {
    for (const origin of ['null', '', 'file://', 'chrome-extension://abcdef', 'not an origin', 'http://*.example.com'])
      assert.deepEqual(originCandidates(origin), [], origin);
  });

  test('a host entry allows the host and its www., on any scheme and port, and nothing under it', () => {
    for (const origin of ['https://google.com', 'http://google.com:8080', 'https://www.google.com'])
      assert.ok(allows('https://www.google.com', origin), origin);
    for (const origin of [
      'https://mail.google.com',
      'https://notgoogle.com',
      'https://google.com.evil.net',
      'https://www.www.google.com',
    ])
      assert.ok(!allows('google.com', origin), origin);
    assert.ok(allows('localhost:3000', 'http://localhost:5173'), 'a port in the entry is no restriction');
    assert.ok(allows('127.0.0.1', 'http://127.0.0.1:8080'));
    assert.ok(!allows('127.0.0.1', 'http://127.0.0.2'));
  });

  test('a wildcard allows every subdomain at any depth, not the domain itself', () => {
    for (const origin of ['https://app.firebase.com', 'http://a.b.firebase.com:3000', 'https://www.firebase.com'])
      assert.ok(allows('https://*.firebase.com', origin), origin);
    for (const origin of ['https://firebase.com', 'https://evilfirebase.com', 'https://firebase.com.evil.net'])
      assert.ok(!allows('*.firebase.com', origin), origin);
  });

  test('IDN entries match the ASCII origins browsers send', () => {
    assert.ok(allows('bücher.de', 'https://xn--bcher-kva.de'));
    assert.ok(allows('*.bücher.de', 'https://shop.xn--bcher-kva.de'));
  });

  test('an Origin longer than any a browser sends has no candidate; the longest real one has', () => {
    const host = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    assert.equal(host.length, 253, 'the longest host DNS allows');
    assert.ok(originCandidates(`https://${host}:65535`).length > 0);
    assert.deepEqual(originCandidates(`https://x.example/${'p'.repeat(MAX_ORIGIN_LENGTH)}`), []);
  });
});

describe('preflight answers held', () => {
  test('an origin too long to be allowed is refused without a lookup, and not held', async () => {
    let lookups = 0;
    const store = {
      anyTenantAllowsDomain: () => {
        lookups++;
        return false;
      },
    } as unknown as Store;
    const answers = new PreflightAnswers(store, 60_000);
    const long = `https://x.example/${'p'.repeat(8000)}`;
    for (let i = 0; i < 3; i++) assert.equal(await answers.allows(`${long}${i}`), false);
    assert.equal(lookups, 0);
    for (let i = 0; i < 3; i++) assert.equal(await answers.allows('https://nobody.example'), false);
    assert.equal(lookups, 1, 'an origin of a browser is looked up once, and held');
    assert.equal((answers as unknown as { held: Map<string, unknown> }).held.size, 1, 'only it is held');
  });
});
