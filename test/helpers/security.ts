// What the security tests of every operation share: requests with exactly the headers given, the
// credential cases that must all answer the one 401, and the check that an error says nothing internal.
import assert from 'node:assert/strict';
import type { Reply, TestApp } from './app.js';

export { BAD_CREDENTIALS } from '../../src/errors.js';

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
