// The server as an npm package (docs/deployment.md, "npm package"): `npm pack` makes a tarball that installs in an
// empty folder with nothing but the npm registry, and its `marginalia` command starts a server that answers
// /readyz and prints the first start's credentials. The tarball holds the build, the documents and no source or test.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
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
  // Every package comes from the registry. better-sqlite3's binary cannot: its prebuilt ones are on GitHub, which
  // only the registry may reach, so it would compile from source (a minute of CPU, the third compile of a CI run).
  // It is given the one `npm ci` built, as a local prebuild (prebuild-install's), with better-sqlite3 pinned
  // to that binary's version beside the package: the way an operator behind such a firewall installs
  // (docs/deployment.md, "npm package").
  const sqlite = localPrebuild(dir);
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, packed!.filename), `better-sqlite3@${sqlite.version}`],
    { cwd: app, env: { ...process.env, npm_config_better_sqlite3_local_prebuilds: sqlite.folder }, stdio: 'ignore' },
  );
  assert.ok(!existsSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'obj.target')), 'not compiled');
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

/** The repository's better-sqlite3 binary packed as the prebuild its install looks for: its folder and version. */
function localPrebuild(dir: string): { folder: string; version: string } {
  const module = join(REPO, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string };
  const folder = join(dir, 'prebuilds');
  mkdirSync(folder);
  // prebuild-install's name for it: {name}-v{version}-{runtime}-v{abi}-{platform}-{arch}.tar.gz (glibc).
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(folder, name), '-C', module, 'build/Release/better_sqlite3.node']);
  return { folder, version };
}
