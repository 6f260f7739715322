// The server as an npm package (docs/deployment.md, "npm package"): `npm pack` makes a tarball that installs in an
// empty folder with nothing but the npm registry, and its `marginalia` command starts a server that answers
// /readyz and prints the first start's credentials. The tarball holds the build, the documents and no source or test.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { firstStartCredentials, REPO, startServer, stopServer, tempDir } from '../helpers/server-process.js';

test('npm pack gives a tarball that installs in an empty folder and serves', { timeout: 240_000 }, async () => {
  const dir = tempDir();
  // The build is the test run's (npm test builds first): packing again need not rebuild it.
  const listing = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: REPO,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(listing) as { filename: string; files: { path: string }[]; size: number }[];
  const paths = packed!.files.map((f) => f.path);
  assert.ok(paths.includes('dist/main.js') && paths.includes('docs/api.md') && paths.includes('README.md'), 'what runs');
  assert.deepEqual(
    paths.filter((p) => /^(src|test|bench|scripts|client\/src)\//.test(p)),
    [],
    'no source, test or bench',
  );
  const app = join(dir, 'app');
  mkdirSync(app);
  // better-sqlite3 compiles from source here (its prebuilt binaries are on GitHub, which only the registry may be).
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed!.filename)], {
    cwd: app,
    env: { ...process.env, npm_config_build_from_source: 'true' },
    stdio: 'ignore',
  });
  const bin = join(app, 'node_modules', '.bin', 'marginalia');
  assert.ok(existsSync(bin), `installed: ${readdirSync(join(app, 'node_modules', '.bin')).join(', ')}`);
  const server = await startServer({
    bin: { path: bin, cwd: app },
    env: { DATABASE_URL: `sqlite:${join(app, 'data', 'marginalia.db')}` },
    timeoutMs: 60_000,
  });
  try {
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 200);
    const { apiKey, authToken } = firstStartCredentials(server.stderr());
    const r = await fetch(`${server.url}/v1/organizations/get`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api-key': apiKey, 'x-service-auth-token': authToken },
      body: JSON.stringify({ data: {} }),
    });
    assert.equal(r.status, 200, await r.text());
    // The documents GET / links to are in the package.
    assert.equal((await fetch(`${server.url}/project/docs/api.md`)).status, 200);
  } finally {
    await stopServer(server);
  }
});
