// What the security tests of every operation share: requests with exactly the headers given, the
// credential cases that must all answer the one 401, and the check that an error says nothing internal.
import assert from 'node:assert/strict';
import { BAD_CREDENTIALS } from '../../src/errors.js';
import { expectError, type Reply, type TestApp } from './app.js';

export { BAD_CREDENTIALS };

/**
 * Markup that must never come back out of commentHtml, whatever else an operation allows: the part of
 * each security test's forbidden list that they share. docs/api.md "Comment HTML" allows div, and img with an
 * absolute http(s) src, so neither is here; a test that forbids more adds its own entries.
 */
export const FORBIDDEN_MARKUP: readonly RegExp[] = [
  /<script/i,
  /<\/script/i,
  /<style/i,
  /<iframe/i,
  /<object/i,
  /<embed/i,
  /<svg/i,
  /<math/i,
  /<form/i,
  /<input/i,
  /<link/i,
  /<meta/i,
  /<base/i,
  /<textarea/i,
  /<template/i,
  /<noscript/i,
  /<body/i,
];

/** A request with exactly these headers (no credentials added) and a body: JSON unless it is a string. */
export function raw(
  t: TestApp,
  path: string,
  headers: Record<string, string | undefined>,
  body: unknown,
  contentType = 'application/json',
): Promise<Reply> {
  return t.request(path, {
    headers: { 'content-type': contentType, ...headers },
    raw: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Credentials that do not check out, each of which must answer 401 `Invalid API key or auth token.` */
export function badCredentialCases(t: TestApp): [string, Record<string, string>][] {
  const { a, b } = t;
  const creds = (apiKey: string, authToken: string) => ({ 'x-service-api-key': apiKey, 'x-service-auth-token': authToken });
  return [
    ['wrong token', creds(a.creds.apiKey, 'mt_not_the_token')],
    ['unknown key', creds('mk_nobody', a.creds.authToken)],
    ['a key with b token', creds(a.creds.apiKey, b.creds.authToken)],
    ['b key with a token', creds(b.creds.apiKey, a.creds.authToken)],
    ['token as key', creds(a.creds.authToken, a.creds.apiKey)],
    ['token with a suffix', creds(a.creds.apiKey, `${a.creds.authToken}x`)],
    ['truncated token', creds(a.creds.apiKey, a.creds.authToken.slice(0, -1))],
  ];
}

/**
 * `body` to `path` without the API key, without the auth token (each 401 naming the missing header), and
 * with neither as text/plain (401): credentials are checked before the body is looked at.
 */
export async function expectMissingCredentials(t: TestApp, path: string, body: unknown): Promise<void> {
  const noKey = await raw(t, path, { 'x-service-auth-token': t.a.creds.authToken }, body);
  assert.ok(expectError(noKey, 401, 'UNAUTHENTICATED', `${path} no key`).includes('x-service-api-key'), noKey.body);
  const noToken = await raw(t, path, { 'x-service-api-key': t.a.creds.apiKey }, body);
  assert.ok(expectError(noToken, 401, 'UNAUTHENTICATED', `${path} no token`).includes('x-service-auth-token'), noToken.body);
  const none = await raw(t, path, {}, body, 'text/plain');
  expectError(none, 401, 'UNAUTHENTICATED', `${path} no headers, text/plain`);
}

/** `body` to `path` with bad credentials (a case of badCredentialCases), then an HTML body: both the one 401. */
export async function expectBadCredentials(
  t: TestApp,
  path: string,
  label: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<void> {
  const r = await raw(t, path, headers, body);
  assert.equal(expectError(r, 401, 'UNAUTHENTICATED', `${path} ${label}`), BAD_CREDENTIALS);
  const g = await raw(t, path, headers, '<script>alert(1)</script>', 'text/html');
  assert.equal(expectError(g, 401, 'UNAUTHENTICATED', `${path} ${label} garbage`), BAD_CREDENTIALS);
}

/** No 500, and no stack trace, file path, SQL or driver name in an error message. */
export function assertNoLeak(r: Reply, what: string): void {
  const message: string = r.json?.error?.message ?? '';
  assert.notEqual(r.status, 500, `${what}: 500 ${r.body}`);
  for (const bad of [
    /\n\s*at /,
    /\.ts:\d+/,
    /\.js:\d+/,
    /node_modules/,
    /sqlite/i,
    /\bSELECT\b/i,
    /\bINSERT\b/i,
    /\bUPDATE\s+\w+\s+SET\b/i,
    /\bWHERE\b/i,
    /json_each/i,
    /Error:/,
    /stack/i,
  ]) {
    assert.doesNotMatch(message, bad, `${what}: message leaks internals: ${message}`);
  }
}
