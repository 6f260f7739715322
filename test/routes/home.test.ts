// The front page and the reference's pages, without credentials (docs/api.md, "Operational endpoints"): GET / names
// the service and its version and links to /docs, /openapi.json, the health checks and the project's documents,
// which the server serves as text under /project/; /docs and /docs/ both serve Swagger UI with its own assets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PROJECT_DOCS } from '../../src/routes/home.js';
import { VERSION } from '../../src/version.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { REPO } from '../helpers/server-process.js';

/** The links of an HTML page (href and src), as its URL resolves them. */
const linksOf = (html: string, pageUrl: string) =>
  [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => new URL(m[1]!.replaceAll('&amp;', '&'), `http://x${pageUrl}`));

describe('GET /, /docs/ and the project documents', () => {
  let t: TestApp;
  before(async () => {
    t = await makeTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('GET / is a small HTML page: the name, the version, and links that all answer, with no credentials', async () => {
    const page = await t.request('/', { method: 'GET' });
    assert.equal(page.status, 200, page.body);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'");
    assert.equal(page.headers['ratelimit-limit'], undefined, 'no key, nothing counted');
    assert.match(page.body, /<title>Marginalia /);
    assert.ok(page.body.includes(`Version ${VERSION}.`), 'the version');
    const links = linksOf(page.body, '/');
    const paths = links.map((u) => u.pathname);
    for (const path of ['/docs/', '/openapi.json', '/healthz', '/readyz', ...PROJECT_DOCS.map((d) => `/project/${d.path}`)])
      assert.ok(paths.includes(path), `links to ${path}`);
    for (const url of links) {
      assert.equal(url.origin, 'http://x', `${url}: nothing outside the server`);
      const r = await t.request(url.pathname, { method: 'GET' });
      assert.equal(r.status, 200, `${url.pathname}: ${r.status} ${r.body.slice(0, 200)}`);
    }
  });

  test("the project's documents are served as text, each as the source has it; nothing else is", async () => {
    for (const { path } of PROJECT_DOCS) {
      const r = await t.request(`/project/${path}`, { method: 'GET' });
      assert.equal(r.status, 200, path);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8', path);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(r.body, readFileSync(join(REPO, path), 'utf8'), path);
    }
    for (const path of ['/project/package.json', '/project/docs/../package.json', '/project/src/main.ts', '/project/'])
      assert.equal((await t.request(path, { method: 'GET' })).status, 404, path);
  });

  test('/docs and /docs/ both serve the reference page, whose assets answer from either', async () => {
    for (const url of ['/docs', '/docs/']) {
      const page = await t.request(url, { method: 'GET' });
      assert.equal(page.status, 200, url);
      assert.match(String(page.headers['content-type']), /text\/html/, url);
      const assets = linksOf(page.body, url);
      assert.ok(assets.length >= 3, url);
      for (const asset of assets) {
        const r = await t.request(asset.pathname, { method: 'GET' });
        assert.equal(r.status, 200, `${url}: ${asset.pathname} ${r.status}`);
      }
    }
  });
});
