// The server's front page (docs/api.md, "Operational endpoints"): GET / answers a small HTML page with the service's
// name and version and links to the reference (/docs, /openapi.json), the health checks and the project's own
// documentation, which the server serves as text under /project/ (the same paths as in the source: /project/docs/
// api.md): the project has no public repository to link to, and an installation may sit on a closed network. No
// credentials, as the other operational routes. Hidden from /openapi.json: pages, not API.
import { readFile } from 'node:fs/promises';
import { ApiError } from '../errors.js';
import { errorBody } from '../http/error-handler.js';
import type { App } from '../http/types.js';
import { VERSION } from '../version.js';

/** The project's documents the server serves, by their path in the source (one directory above src/ and dist/). */
export const PROJECT_DOCS: readonly { path: string; what: string }[] = [
  { path: 'README.md', what: 'what Marginalia is, and how to start it' },
  { path: 'docs/api.md', what: 'the HTTP API: every operation, with examples' },
  { path: 'docs/events.md', what: 'the live event stream and webhooks' },
  { path: 'docs/configuration.md', what: 'every setting' },
  { path: 'docs/deployment.md', what: 'running it: databases, several instances, upgrading' },
  { path: 'docs/operations.md', what: 'faults, and what the server and its callers do about them' },
  { path: 'docs/decisions.md', what: 'why it behaves as it does where the contract is silent' },
  { path: 'docs/architecture.md', what: 'how the code is laid out' },
  { path: 'CHANGELOG.md', what: 'what changed in each release' },
  { path: 'SECURITY.md', what: 'what is guaranteed about security, and how to report a problem' },
];

const ROOT = new URL('../../', import.meta.url);
export const PROJECT_PREFIX = '/project/';

const html = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const link = (href: string, text: string, what: string) => `<li><a href="${html(href)}">${html(text)}</a>: ${html(what)}</li>`;

// Relative links, so the page works behind a proxy that serves it under a path of its own.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Marginalia ${html(VERSION)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}</style>
</head>
<body>
<h1>Marginalia</h1>
<p>Version ${html(VERSION)}. Users, comment threads and in-app notifications for many tenants, behind an HTTP JSON API.</p>
<h2>API</h2>
<ul>
${link('docs/', '/docs', 'the interactive reference (Swagger UI): every operation, and "Try it out"')}
${link('openapi.json', '/openapi.json', 'the OpenAPI 3.1 document')}
${link('healthz', '/healthz', 'the process is alive')}
${link('readyz', '/readyz', 'the database answers')}
</ul>
<h2>Documentation</h2>
<ul>
${PROJECT_DOCS.map((d) => link(`${PROJECT_PREFIX.slice(1)}${d.path}`, d.path, d.what)).join('\n')}
</ul>
</body>
</html>
`;

/** Pages carry no script and load nothing from elsewhere; a text file is shown as text, never sniffed as a page. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
};
const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };

export function registerHome(app: App): void {
  const page = { schema: { hide: true } };
  app.get('/', page, (_request, reply) => reply.headers(PAGE_HEADERS).send(PAGE));
  for (const { path } of PROJECT_DOCS)
    app.get(`${PROJECT_PREFIX}${path}`, page, async (_request, reply) => {
      let text: string;
      try {
        text = await readFile(new URL(path, ROOT), 'utf8');
      } catch {
        // An installation without its documents (an image that left them out): the link leads nowhere.
        return reply.code(404).send(errorBody(new ApiError('NOT_FOUND', `${path} is not in this installation.`)));
      }
      return reply.headers(TEXT_HEADERS).send(text);
    });
}
