// The client as another project gets it: `npm pack` of client/, installed into an empty project with
// its one dependency from the registry, and a consumer type-checked against it (skipLibCheck, as most
// projects have it) and run. The types must hold outside this repository: typed data, typed results.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/server-process.js';

const CONSUMER = `import { Marginalia, MarginaliaError } from '@marginalia/client';
const api = new Marginalia({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'k', authToken: 't' });
const r = await api.notifications.get({ organizationId: 'o', userId: 'u' });
const name: string = r.data[0]!.actionUser.name;
// @ts-expect-error organizationId is a string
await api.users.add({ organizationId: 1, users: [{ userId: 'u' }] });
// @ts-expect-error the result is typed, not any
const wrong: number = r.data;
const e = new MarginaliaError('NOT_FOUND', 'm', 404, null);
// @ts-expect-error statuses are the codes of docs/api.md "Wire format"
const bad: MarginaliaError['status'] = 'NOPE';
for await (const event of api.events.subscribe({ organizationId: 'o', types: ['comment.*', 'notification.add'] })) {
  const id: number = event.id;
  // @ts-expect-error the type is one of the event types, not any string
  const type: 'nope' = event.type;
  console.log(type, id, event.data);
  break;
}
// @ts-expect-error types are event types or families
api.events.subscribe({ types: ['comment.nope'] });
const hook = await api.webhooks.add({ url: 'https://example.com/hook', events: ['comment.*'] });
const secret: string = hook.data.secret;
export { name, wrong, e, bad, secret };
`;

/** One call of the installed client, its request printed (a stub fetch answers it). */
const RUN = `import { Marginalia } from '@marginalia/client';
const fetch = async (url, init) => {
  console.log(init.method, url, init.body);
  return new Response(JSON.stringify({ result: { status: 'success', message: 'm', data: {} } }));
};
await new Marginalia({ baseUrl: 'http://x', apiKey: 'k', authToken: 't', fetch }).users.add({});
`;

test('the packed client installs into another project and its types hold there', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'marginalia-consumer-'));
  try {
    const npm = (args: string[], cwd: string) =>
      execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const tarball = npm(['pack', '--silent', '--pack-destination', dir], join(REPO, 'client')).trim().split('\n').pop()!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    npm(['install', '--silent', '--no-audit', '--no-fund', join(dir, tarball)], dir);
    writeFileSync(join(dir, 'c.ts'), CONSUMER);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
          types: [],
        },
        include: ['c.ts'],
      }),
    );
    // Unused @ts-expect-error lines are errors too: the check fails if the types were loose (any/unknown).
    execFileSync(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', dir], { encoding: 'utf8' });
    // The client reads its paths from the contract table it ships (src/schemas/operations), so it must
    // also load and call there, with nothing but its one dependency.
    writeFileSync(join(dir, 'run.mjs'), RUN);
    assert.equal(
      execFileSync('node', ['run.mjs'], { cwd: dir, encoding: 'utf8' }).trim(),
      'POST http://x/v1/users/add {"data":{}}',
    );
    const files = npm(['ls', '--all', '--parseable'], dir);
    assert.match(files, /typebox/, 'its one dependency came with it');
    assert.doesNotMatch(files, /fastify|better-sqlite3|node_modules\/pg\b/, 'nothing of the service');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
