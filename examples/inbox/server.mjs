#!/usr/bin/env node
// The inbox example's web server, standing in for a customer's own backend: it serves the page, the
// browser bundle of the typed client (npm run -s client:bundle), and GET /token, which holds the server
// credentials and asks Marginalia for an end-user token for the user the page names. A real backend
// names the signed-in user of its own session instead: this one trusts the query, so it is a demo only.
//
//   MARGINALIA_URL (default http://127.0.0.1:8080), MARGINALIA_API_KEY, MARGINALIA_AUTH_TOKEN: Marginalia
//   and the tenant's server credentials; PORT (default 8090; 0: any free port), HOST (default 127.0.0.1).
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const BUNDLE = join(HERE, '..', '..', 'client', 'dist', 'browser', 'marginalia.js');
const MARGINALIA = (process.env.MARGINALIA_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const API_KEY = process.env.MARGINALIA_API_KEY;
const AUTH_TOKEN = process.env.MARGINALIA_AUTH_TOKEN;
if (!API_KEY || !AUTH_TOKEN) {
  console.error('Set MARGINALIA_API_KEY and MARGINALIA_AUTH_TOKEN: the tenant credentials this backend holds.');
  process.exit(1);
}

const FILES = {
  '/': { file: join(HERE, 'index.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: join(HERE, 'app.js'), type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: join(HERE, 'style.css'), type: 'text/css; charset=utf-8' },
  '/marginalia.js': { file: BUNDLE, type: 'text/javascript; charset=utf-8' },
};

// The page may load only its own files and speak only to itself and Marginalia: no third party.
const SECURITY_HEADERS = {
  'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ${MARGINALIA}; base-uri 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** POSTs {data} to Marginalia with the server credentials; the `result`, or an Error with Marginalia's answer. */
async function marginalia(path, data) {
  const res = await fetch(`${MARGINALIA}/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-key': API_KEY, 'x-service-auth-token': AUTH_TOKEN },
    body: JSON.stringify({ data }),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok || !body?.result) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(body?.error ?? body)}`);
  return body.result;
}

const ID = /^[A-Za-z0-9_.@-]{1,128}$/;

/** GET /token?user=&org=: the user's profile in the organization kept (users/add), then a token for them. */
async function token(query) {
  const user = query.get('user');
  const org = query.get('org');
  if (!ID.test(user ?? '') || !ID.test(org ?? ''))
    return { status: 400, body: { error: 'user and org: 1-128 of A-Z a-z 0-9 _ . @ -' } };
  const name = user.charAt(0).toUpperCase() + user.slice(1);
  const email = `${user}@${org}.example`;
  // Comments and notifications show the profile's name, and an organization's documents are open to
  // its members: a backend keeps its signed-in user's profile in Marginalia.
  await marginalia('users/add', { organizationId: org, users: [{ userId: user, name, email }] });
  const result = await marginalia('auth/token/get', { userId: user, userProperties: { organizationId: org, name, email } });
  return { status: 200, body: { token: result.data.token, marginaliaUrl: MARGINALIA } };
}

async function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method !== 'GET') return send(res, 405, 'text/plain', 'GET only');
  if (url.pathname === '/token') {
    const answer = await token(url.searchParams);
    return send(res, answer.status, 'application/json', JSON.stringify(answer.body), { 'cache-control': 'no-store' });
  }
  const entry = FILES[url.pathname];
  if (!entry) return send(res, 404, 'text/plain', 'Not found');
  let content;
  try {
    content = await readFile(entry.file);
  } catch {
    const missing = entry.file === BUNDLE ? 'The client bundle is missing: run npm run -s client:bundle.' : 'Missing file.';
    return send(res, 500, 'text/plain', missing);
  }
  send(res, 200, entry.type, content, { 'cache-control': 'no-cache' });
}

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS, ...headers });
  res.end(body);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) send(res, 502, 'application/json', JSON.stringify({ error: String(err.message) }));
    else res.end();
  });
});
const port = Number(process.env.PORT ?? 8090);
server.listen(port, process.env.HOST || '127.0.0.1', () => {
  const { address, port: bound } = server.address();
  console.log(`Inbox example at http://${address}:${bound}/?user=ana&org=acme&doc=welcome (Marginalia: ${MARGINALIA})`);
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Pages keep their connections open: end them, or close would wait for the tabs to go.
    server.closeAllConnections();
  });
