// The container and service files (docs/deployment.md, "Container", "Compose", "systemd"). No Docker engine runs on
// these machines, so the image is not built here; this checks what can be checked without one: every file a COPY
// names is in the repository (or made by the build stage), the image starts the server as `npm start` does, its
// health check asks a path the server answers, and every environment variable the Dockerfile, compose.yaml and the
// systemd unit set is a declared setting (a misspelt one would be ignored without a word).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { SETTINGS } from '../../src/config/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { REPO } from '../helpers/server-process.js';

const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const dockerfile = read('Dockerfile');
/** The Dockerfile's instructions, continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const declared = new Set(SETTINGS.map((s) => s.name));
/** What the image, the unit or compose may set that is not a setting of ours: Node's own. */
const NOT_OURS = new Set(['NODE_ENV']);

let t: TestApp;
before(async () => {
  t = await makeTestApp();
});
after(async () => t.close());

test('every file a COPY names is in the repository, or made by an earlier stage', () => {
  const copies = instructions.filter((l) => l.startsWith('COPY '));
  assert.ok(copies.length > 0);
  for (const line of copies) {
    if (line.includes('--from=')) continue;
    const args = line.split(/\s+/).slice(1);
    for (const source of args.slice(0, -1))
      assert.ok(existsSync(join(REPO, source)), `${line}: ${source} is not in the repository`);
  }
  // What the runtime stage takes from the build: the stage builds it (npm ci runs the build) and keeps it.
  for (const line of copies.filter((l) => l.includes('--from=build'))) assert.match(line, /(node_modules|dist)/, line);
});

test('the image starts the server as `npm start` does, as a user of its own, with its data on a volume', () => {
  const cmd = instructions.find((l) => l.startsWith('CMD '))!;
  const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start!;
  assert.equal((JSON.parse(cmd.slice(4)) as string[]).join(' '), start);
  assert.ok(read('README.md').includes('npm start'), 'the README starts it with npm start');
  assert.ok(
    instructions.some((l) => /^USER (?!root)\S+/.test(l)),
    'not root',
  );
  const volume = instructions.find((l) => l.startsWith('VOLUME '))!.split(/\s+/)[1]!;
  assert.ok(
    instructions.some((l) => l.startsWith('ENV ') && l.includes(`DATABASE_URL=sqlite:${volume}/`)),
    'the database on it',
  );
});

test('the health check asks a path the server answers', async () => {
  const check = instructions.find((l) => l.startsWith('HEALTHCHECK '))!;
  const path = /127\.0\.0\.1:'\+\(process\.env\.PORT\|\|8080\)\+'(\/[a-z]+)'/.exec(check)?.[1];
  assert.equal(path, '/readyz');
  const r = await t.request(path, { method: 'GET' });
  assert.equal(r.status, 200, r.body);
});

test('every variable the Dockerfile, compose.yaml and the systemd unit set is a declared setting', () => {
  const set: [string, string][] = [];
  for (const line of instructions.filter((l) => l.startsWith('ENV ')))
    for (const m of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=/g)) set.push(['Dockerfile', m[1]!]);
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, { environment?: object }> };
  const instances = Object.entries(compose.services).filter(([name]) => name.startsWith('marginalia'));
  assert.equal(instances.length, 2, 'two instances');
  for (const [name, service] of instances) {
    assert.ok(service.environment, `${name} has its settings`);
    for (const key of Object.keys(service.environment)) set.push([`compose.yaml ${name}`, key]);
  }
  const unit = read('deploy/marginalia.service');
  for (const m of unit.matchAll(/^Environment=([A-Z_][A-Z0-9_]*)=/gm)) set.push(['deploy/marginalia.service', m[1]!]);
  assert.ok(set.length > 5);
  for (const [where, name] of set) assert.ok(declared.has(name) || NOT_OURS.has(name), `${where}: ${name} is not a setting`);
});

test('the systemd unit is hardened and leaves V8 its JIT', () => {
  const unit = read('deploy/marginalia.service');
  for (const option of [
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    'ProtectHome=yes',
    'PrivateTmp=yes',
    'CapabilityBoundingSet=',
  ])
    assert.ok(unit.includes(`\n${option}\n`), option);
  assert.ok(!/^MemoryDenyWriteExecute=yes/m.test(unit), 'V8 needs memory it writes and runs');
  assert.match(unit, /^ExecStart=.*marginalia serve$/m);
});
