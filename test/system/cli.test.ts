// The operator CLI against a real SQLite file: output shapes, exit codes, and what each command changes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/types.js';
import { DEFAULT_LIMITS } from '../../src/schemas/common.js';
import { authenticate, createTenant, hashToken, type IssuedCredentials, tokenRecord } from '../../src/services/credentials.js';
import { authenticateWorkspace } from '../../src/services/workspace-credentials.js';
import { PATHS, user } from '../helpers/app.js';
import { cli, firstStartCredentials, MAIN, post, REPO, startServer, stopServer, tempDir } from '../helpers/server-process.js';
import { type FreshDatabase, freshDatabase, sqliteStore, STORE_KINDS } from '../helpers/test-database.js';
import type { Store } from '../../src/store/store.js';
import { LATEST_MIGRATION } from '../../src/store/migrations/index.js';

function database() {
  const path = join(tempDir(), 'cli.db');
  return { path, env: { DATABASE_URL: `sqlite:${path}` } };
}

async function withStore<T>(path: string, fn: (store: Store) => T | Promise<T>): Promise<T> {
  const store = sqliteStore(path);
  await store.migrate();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('marginalia CLI', () => {
  test('keys create prints one JSON object whose credentials authenticate', async () => {
    const db = database();
    const r = cli(['keys', 'create', '--name', 'acme'], db.env);
    assert.equal(r.code, 0, r.stderr);
    const creds = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(creds).sort(), ['apiKey', 'authToken']);
    const tenant = await withStore(db.path, (s) => authenticate(s, creds.apiKey, creds.authToken));
    assert.equal(tenant.name, 'acme');
  });

  test('tokens are stored only as hashes', async () => {
    const db = database();
    const creds = JSON.parse(cli(['keys', 'create', '--name', 'acme'], db.env).stdout);
    const tokens = await withStore(db.path, async (s) => s.listTokens((await s.findCredentials(creds.apiKey))!.tenant.id));
    assert.equal(tokens.length, 1);
    assert.equal(tokens[0]!.hash, hashToken(creds.authToken));
    assert.ok(creds.authToken.startsWith(tokens[0]!.prefix));
    assert.ok(tokens[0]!.prefix.length <= creds.authToken.length / 4, 'the kept prefix is at most a quarter of the token');
    const { readFileSync } = await import('node:fs');
    assert.ok(!readFileSync(db.path).includes(Buffer.from(creds.authToken)), 'the token itself is nowhere in the database file');
  });

  test('keys list shows keys and token prefixes, never whole tokens', () => {
    const db = database();
    const one = JSON.parse(cli(['keys', 'create', '--name', 'one'], db.env).stdout);
    cli(['keys', 'create', '--name', 'two'], db.env);
    const r = cli(['keys', 'list'], db.env);
    assert.equal(r.code, 0, r.stderr);
    const list = JSON.parse(r.stdout);
    assert.deepEqual(
      list.map((k: any) => k.name),
      ['one', 'two'],
    );
    assert.equal(list[0].apiKey, one.apiKey);
    assert.equal(list[0].tokens.length, 1);
    assert.ok(one.authToken.startsWith(list[0].tokens[0].prefix));
    assert.ok(!r.stdout.includes(one.authToken), 'no whole token in the listing');
  });

  test('tokens create adds a second working token; tokens revoke by prefix revokes only that one', async () => {
    const db = database();
    const first = JSON.parse(cli(['keys', 'create', '--name', 'acme'], db.env).stdout);
    const created = cli(['tokens', 'create', first.apiKey], db.env);
    assert.equal(created.code, 0, created.stderr);
    const second = JSON.parse(created.stdout);
    assert.equal(second.apiKey, first.apiKey);
    assert.notEqual(second.authToken, first.authToken);

    const revoked = cli(['tokens', 'revoke', first.apiKey, first.authToken.slice(0, 11)], db.env);
    assert.equal(revoked.code, 0, revoked.stderr);
    await withStore(db.path, async (s) => {
      await assert.rejects(async () => authenticate(s, first.apiKey, first.authToken), { code: 'UNAUTHENTICATED' });
      assert.equal((await authenticate(s, second.apiKey, second.authToken)).apiKey, first.apiKey);
    });
  });

  test('tokens revoke refuses a prefix that names no token, several tokens, or too little', async () => {
    const db = database();
    const creds = JSON.parse(cli(['keys', 'create', '--name', 'acme'], db.env).stdout);
    // Two tokens with the same visible prefix ("same-prefix"), so a short prefix names both.
    const twins = ['same-prefix-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'same-prefix-token-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'];
    await withStore(db.path, async (s) => {
      const tenantId = (await s.findCredentials(creds.apiKey))!.tenant.id;
      for (const t of twins) await s.addToken(tenantId, tokenRecord(t, Date.now()));
    });
    const none = cli(['tokens', 'revoke', creds.apiKey, 'zzzzzz'], db.env);
    assert.equal(none.code, 1, none.stdout);
    assert.match(none.stderr, /No active token/);
    const short = cli(['tokens', 'revoke', creds.apiKey, 'mt_'], db.env);
    assert.equal(short.code, 2);
    assert.match(short.stderr, /at least 4/);
    const ambiguous = cli(['tokens', 'revoke', creds.apiKey, 'same-pre'], db.env);
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /2 active tokens/);
    const whole = cli(['tokens', 'revoke', creds.apiKey, twins[1]!], db.env);
    assert.equal(whole.code, 0, `a whole token names exactly one: ${whole.stderr}`);
    await withStore(db.path, async (s) => {
      await assert.rejects(async () => authenticate(s, creds.apiKey, twins[1]!), { code: 'UNAUTHENTICATED' });
      await authenticate(s, creds.apiKey, twins[0]!);
    });
  });

  test('keys revoke, disable and enable change what authentication answers', async () => {
    const db = database();
    const creds = JSON.parse(cli(['keys', 'create', '--name', 'acme'], db.env).stdout);
    assert.equal(cli(['keys', 'disable', creds.apiKey], db.env).code, 0);
    await withStore(db.path, (s) =>
      assert.rejects(async () => authenticate(s, creds.apiKey, creds.authToken), { code: 'PERMISSION_DENIED' }),
    );
    assert.equal(cli(['keys', 'enable', creds.apiKey], db.env).code, 0);
    await withStore(db.path, (s) => authenticate(s, creds.apiKey, creds.authToken));
    assert.equal(cli(['keys', 'revoke', creds.apiKey], db.env).code, 0);
    await withStore(db.path, (s) =>
      assert.rejects(async () => authenticate(s, creds.apiKey, creds.authToken), { code: 'UNAUTHENTICATED' }),
    );
    const token = cli(['tokens', 'create', creds.apiKey], db.env);
    assert.equal(token.code, 1, 'a revoked key takes no new tokens');
  });

  test('unknown keys, unknown commands and missing arguments fail with clear messages and exit codes', () => {
    const db = database();
    const unknownKey = cli(['keys', 'revoke', 'mk_nope'], db.env);
    assert.equal(unknownKey.code, 1);
    assert.match(unknownKey.stderr, /No API key mk_nope/);
    const unknown = cli(['frobnicate'], db.env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command/);
    const noName = cli(['keys', 'create'], db.env);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /--name/);
    const badOption = cli(['keys', 'list', '--bogus'], db.env);
    assert.equal(badOption.code, 2);
    const help = cli(['--help'], db.env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /keys create --name/);
    assert.match(help.stdout, /Exit codes: 0 done, 1 failed/);
  });

  test('workspace credentials makes the id and token, then rotates the token: the old one is refused, the id stays', async () => {
    const db = database();
    const first = cli(['workspace', 'credentials'], db.env);
    assert.equal(first.code, 0, first.stderr);
    const made = JSON.parse(first.stdout);
    assert.deepEqual(Object.keys(made).sort(), ['rotated', 'workspaceAuthToken', 'workspaceId']);
    assert.equal(made.rotated, false);
    assert.equal(
      (await withStore(db.path, (s) => authenticateWorkspace(s, made.workspaceId, made.workspaceAuthToken))).workspaceId,
      made.workspaceId,
    );
    const again = JSON.parse(cli(['workspace', 'credentials'], db.env).stdout);
    assert.equal(again.workspaceId, made.workspaceId);
    assert.equal(again.rotated, true);
    assert.notEqual(again.workspaceAuthToken, made.workspaceAuthToken);
    await withStore(db.path, async (s) => {
      await assert.rejects(async () => authenticateWorkspace(s, made.workspaceId, made.workspaceAuthToken), /Invalid workspace/);
      assert.equal((await authenticateWorkspace(s, again.workspaceId, again.workspaceAuthToken)).workspaceId, made.workspaceId);
    });
    const file = readFileSync(db.path);
    for (const token of [made.workspaceAuthToken, again.workspaceAuthToken])
      assert.ok(!file.includes(Buffer.from(token)), 'no workspace token is in the database file');
    assert.equal(await withStore(db.path, (s) => s.countTenants()), 0, 'the workspace is no tenant');
    const extra = cli(['workspace', 'credentials', 'more'], db.env);
    assert.equal(extra.code, 2);
    assert.match(extra.stderr, /usage: marginalia workspace credentials/);
  });

  test('migrate brings a new database up to date, says what it did, and refuses a database a newer release migrated', async () => {
    const db = database();
    const first = cli(['migrate'], db.env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `applied 1-${LATEST_MIGRATION}: database at migration ${LATEST_MIGRATION} (new database)\n`);
    const again = cli(['migrate'], db.env);
    assert.equal(again.stdout, `database at migration ${LATEST_MIGRATION}, nothing to do\n`);
    assert.equal(await withStore(db.path, (s) => s.countTenants()), 0, 'migrate creates no tenant');

    // As a newer release leaves it: a step this build does not know is recorded.
    const raw = new Database(db.path);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)')
      .run(LATEST_MIGRATION + 1, 'from-the-future');
    raw.close();
    const newer = cli(['migrate'], db.env);
    assert.equal(newer.code, 1);
    assert.match(
      newer.stderr,
      new RegExp(`at migration ${LATEST_MIGRATION + 1}, newer than this build knows \\(${LATEST_MIGRATION}\\)`),
    );
    assert.equal(newer.stdout, '');
  });
});

describe('keys rotate-signing-key', () => {
  test("a running server refuses the tenant's end-user tokens signed before, and signs new ones with the new key", async () => {
    const db = database();
    const s = await startServer({ env: db.env });
    try {
      const creds = firstStartCredentials(s.stderr());
      const token = async () => {
        const r = await post(s.url, '/v1/auth/token/get', creds, { userId: 'ada', userProperties: { organizationId: 'acme' } });
        assert.equal(r.status, 200, r.text);
        return r.json.result.data.token as string;
      };
      const inbox = async (bearer: string) =>
        (
          await fetch(`${s.url}/v1/notifications/get`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
            body: JSON.stringify({ data: { organizationId: 'acme', userId: 'ada' } }),
          })
        ).status;
      const none = cli(['keys', 'rotate-signing-key', creds.apiKey], db.env);
      assert.deepEqual(JSON.parse(none.stdout), { apiKey: creds.apiKey, kid: null, rotated: false }, 'no token yet: no key');
      const before = await token();
      assert.equal(await inbox(before), 200);
      const r = cli(['keys', 'rotate-signing-key', creds.apiKey], db.env);
      assert.equal(r.code, 0, r.stderr);
      const rotated = JSON.parse(r.stdout);
      assert.equal(rotated.rotated, true);
      assert.equal(await inbox(before), 401, 'a token signed with the old key is refused at once');
      const after = await token();
      assert.equal(JSON.parse(Buffer.from(after.split('.')[0]!, 'base64url').toString()).kid, rotated.kid);
      assert.equal(await inbox(after), 200, 'the server signs with the new key');
      assert.equal(cli(['keys', 'rotate-signing-key', 'mk_nope'], db.env).code, 1);
    } finally {
      await stopServer(s);
    }
  });
});

describe('help and version', () => {
  const db = database();

  test("--help on every command prints that command's usage, exit 0", () => {
    for (const [args, expected] of [
      [['serve', '--help'], /Usage: marginalia serve/],
      [['migrate', '--help'], /Usage: marginalia migrate/],
      [['seed', '--help'], /Usage: marginalia seed --demo/],
      [['keys', '--help'], /keys create --name <name>/],
      [['keys', 'create', '--help'], /Usage: marginalia keys/],
      [['tokens', 'revoke', '--help'], /tokens revoke <apiKey> <prefix>/],
      [['orgs', 'list', '--help'], /Usage: marginalia orgs list \[--tenant <tenant>\]/],
      [['users', '--help'], /Usage: marginalia users erase --user <userId>/],
      [['help', 'tokens'], /Usage: marginalia tokens/],
      [['workspace', '--help'], /Usage: marginalia workspace credentials/],
      [['email', '--help'], /Usage: marginalia email test <address>/],
      [['-h'], /email test <address>/],
      [['backup', '--help'], /Usage: marginalia backup <file>/],
      [['restore', '--help'], /Usage: marginalia restore <file>/],
      [['help', 'restore'], /Stop the server first/],
      [['-h'], /workspace credentials/],
      [['-h'], /Commands:/],
    ] as const) {
      const r = cli([...args], db.env);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, expected, args.join(' '));
    }
  });

  test('--version prints the package version', async () => {
    const { readFileSync } = await import('node:fs');
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const r = cli([flag], db.env);
      assert.equal(r.code, 0);
      assert.equal(r.stdout.trim(), version);
    }
  });

  test('a command group alone prints its help, exit 0', () => {
    for (const [group, expected] of [
      ['keys', /Usage: marginalia keys <create\|list\|revoke\|disable\|enable\|rotate-signing-key>/],
      ['tokens', /Usage: marginalia tokens <create\|revoke>/],
      ['orgs', /Usage: marginalia orgs list/],
      ['users', /Usage: marginalia users erase/],
      ['webhooks', /Usage: marginalia webhooks <add\|list/],
      ['workspace', /Usage: marginalia workspace credentials/],
      ['email', /Usage: marginalia email test <address>/],
    ] as const) {
      const r = cli([group], db.env);
      assert.equal(r.code, 0, `${group}: ${r.stderr}`);
      assert.match(r.stdout, expected, group);
      assert.equal(r.stderr, '', group);
    }
  });

  test('backup and restore without a file print their usage, exit 2', () => {
    for (const command of ['backup', 'restore']) {
      const r = cli([command], db.env);
      assert.equal(r.code, 2);
      assert.match(r.stderr, new RegExp(`usage: marginalia ${command} <file>`));
    }
  });

  test('an unknown subcommand shows the help of its command, exit 2', () => {
    const r = cli(['keys', 'bogus'], db.env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "keys bogus"/);
    assert.match(r.stderr, /Usage: marginalia keys/);
  });
});

// A command imports what it runs and no more (src/main.ts): the server's modules (Fastify, pino and
// its thread-stream, ioredis, every route) made each command, even --version, take seconds to start.
describe('what a command loads', () => {
  /** The packages (under node_modules) a CLI run loaded through require, which is how CommonJS packages load. */
  function packagesLoaded(args: string[], env: Record<string, string>): Set<string> {
    const dir = tempDir();
    const probe = join(dir, 'probe.mjs');
    const out = join(dir, 'loaded.json');
    writeFileSync(
      probe,
      "import { writeFileSync } from 'node:fs';\nimport { createRequire } from 'node:module';\n" +
        'const cache = createRequire(import.meta.url).cache;\n' +
        `process.on('exit', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(cache))));\n`,
    );
    const r = spawnSync(process.execPath, ['--import', probe, MAIN, ...args], {
      cwd: REPO,
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    const files = JSON.parse(readFileSync(out, 'utf8')) as string[];
    return new Set(files.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1]).filter((p) => p !== undefined));
  }

  test('--version loads no package at all', () => {
    assert.deepEqual([...packagesLoaded(['--version'], {})], []);
  });

  test('a store command loads its database driver, and nothing of the server', () => {
    const loaded = packagesLoaded(['keys', 'list'], database().env);
    assert.ok(loaded.has('better-sqlite3'), [...loaded].join(' '));
    for (const serverOnly of ['fastify', 'pino', 'thread-stream', 'ioredis', 'prom-client', 'sanitize-html'])
      assert.ok(!loaded.has(serverOnly), `keys list loaded ${serverOnly}`);
  });
});

// orgs list and users erase on every database there is: the data is made and checked through the API
// (an app in this process, on the database the CLI process writes), as a client would see it.
for (const kind of STORE_KINDS) {
  describe(`orgs list and users erase (${kind})`, () => {
    let db: FreshDatabase;
    let store: Store;
    let app: App;
    let alpha: IssuedCredentials;
    let beta: IssuedCredentials;

    const ok = async (creds: IssuedCredentials, path: string, data: unknown) => {
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/json',
          'x-service-api-key': creds.apiKey,
          'x-service-auth-token': creds.authToken,
        },
        payload: JSON.stringify({ data }),
      });
      assert.equal(res.statusCode, 200, `${path}: ${res.body.slice(0, 500)}`);
      return JSON.parse(res.body).result;
    };
    const userIds = async (creds: IssuedCredentials, organizationId: string) =>
      (await ok(creds, PATHS.usersGet, { organizationId })).data.map((u: { userId: string }) => u.userId);
    const texts = async (creds: IssuedCredentials, organizationId: string) =>
      (await ok(creds, PATHS.commentsGet, { organizationId, documentId: 'doc', annotationId: 'thread' })).data.map(
        (c: { commentText: string }) => c.commentText,
      );
    /** An organization with members ada and bob and one thread where both wrote. */
    const populated = async (creds: IssuedCredentials, organizationId: string) => {
      await ok(creds, PATHS.usersAdd, { organizationId, users: [user('ada'), user('bob')] });
      const commentData = [
        { commentHtml: '<p>by ada</p>', from: { userId: 'ada' } },
        { commentHtml: '<p>by bob</p>', from: { userId: 'bob' } },
      ];
      await ok(creds, PATHS.annotationsAdd, {
        organizationId,
        documentId: 'doc',
        commentAnnotations: [{ annotationId: 'thread', commentData }],
      });
    };

    before(async () => {
      db = freshDatabase(kind);
      store = await db.open();
      app = await buildApp({ config: { bodyLimit: 1_048_576, rateLimit: 0, maxJsonDepth: 32, limits: DEFAULT_LIMITS }, store });
      await app.ready();
      alpha = await createTenant(store, Date.now, 'alpha');
      beta = await createTenant(store, Date.now, 'beta');
    });
    after(async () => {
      await app.close();
      await store.close();
      await db.drop();
    });

    test('orgs list shows every organization of the chosen tenant only, by API key, id or name', async () => {
      // More than one page of the CLI's reads (1000), so paging is exercised.
      const ids = Array.from({ length: 1005 }, (_, i) => `org-${String(i).padStart(4, '0')}`);
      await store.addOrganizations(
        (await store.findCredentials(alpha.apiKey))!.tenant.id,
        ids.map((organizationId) => ({ organizationId, name: null })),
        Date.UTC(2024, 0, 1),
      );
      await ok(alpha, PATHS.organizationsAdd, { organizations: [{ organizationId: 'org-0001', organizationName: 'Acme' }] });
      await ok(alpha, PATHS.organizationsDisable, { organizationIds: ['org-0002'], disabled: true });
      await ok(beta, PATHS.organizationsAdd, { organizations: [{ organizationId: 'beta-only', organizationName: 'Beta' }] });

      const r = cli(['orgs', 'list', '--tenant', alpha.apiKey], db.env);
      assert.equal(r.code, 0, r.stderr);
      const list = JSON.parse(r.stdout);
      assert.deepEqual(
        list.map((o: { id: string }) => o.id),
        ids,
        'all of them, in id order, none of the other tenant',
      );
      assert.deepEqual(Object.keys(list[1]), ['id', 'name', 'disabled', 'createdAt', 'lastUpdated']);
      assert.equal(list[1].name, 'Acme');
      assert.equal(list[0].createdAt, '2024-01-01T00:00:00.000Z');
      assert.deepEqual(
        list.filter((o: { disabled: boolean }) => o.disabled).map((o: { id: string }) => o.id),
        ['org-0002'],
      );

      const byName = cli(['orgs', 'list', '--tenant', 'beta'], db.env);
      assert.equal(byName.code, 0, byName.stderr);
      assert.deepEqual(
        JSON.parse(byName.stdout).map((o: { id: string; name: string }) => [o.id, o.name]),
        [['beta-only', 'Beta']],
      );
      const tenantId = (await store.findCredentials(beta.apiKey))!.tenant.id;
      assert.equal(cli(['orgs', 'list', '--tenant', tenantId], db.env).stdout, byName.stdout);
    });

    test("users erase removes the user's profile and comments in every organization, and nobody else's", async () => {
      await populated(alpha, 'e1');
      await populated(alpha, 'e2');
      await populated(beta, 'e1');
      const r = cli(['users', 'erase', '--user', 'ada', '--tenant', 'alpha'], db.env);
      assert.equal(r.code, 0, r.stderr);
      const job = JSON.parse(r.stdout);
      assert.deepEqual(Object.keys(job), ['jobId', 'tasksCount']);
      assert.ok(Number.isInteger(job.tasksCount) && job.tasksCount > 0, r.stdout);
      const status = await ok(alpha, PATHS.userDataStatus, { jobId: job.jobId });
      assert.equal(status.data.isDeleteCompleted, true, 'the API knows the job');
      for (const org of ['e1', 'e2']) {
        assert.deepEqual(await userIds(alpha, org), ['bob'], org);
        assert.deepEqual(await texts(alpha, org), ['by bob'], org);
      }
      assert.deepEqual(await userIds(beta, 'e1'), ['ada', 'bob'], "the other tenant's ada is another person");
      assert.deepEqual(await texts(beta, 'e1'), ['by ada', 'by bob']);
    });

    test('users erase with --org erases in those organizations only', async () => {
      await populated(alpha, 'o1');
      await populated(alpha, 'o2');
      await populated(alpha, 'o3');
      const r = cli(
        ['users', 'erase', '--org', 'o1', '--org', 'o2', '--user', 'ada', '--user', 'nobody', '--tenant', alpha.apiKey],
        db.env,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(await userIds(alpha, 'o1'), ['bob']);
      assert.deepEqual(await texts(alpha, 'o2'), ['by bob']);
      assert.deepEqual(await userIds(alpha, 'o3'), ['ada', 'bob'], 'an organization not named is untouched');
      assert.deepEqual(await texts(alpha, 'o3'), ['by ada', 'by bob']);
    });

    test('usage errors exit 2 and change nothing; an unknown tenant exits 1', async () => {
      await populated(alpha, 'u1');
      const noUser = cli(['users', 'erase', '--org', 'u1', '--tenant', 'alpha'], db.env);
      assert.equal(noUser.code, 2, noUser.stderr);
      assert.match(noUser.stderr, /usage: marginalia users erase --user <userId>/);
      const emptyUser = cli(['users', 'erase', '--user', '', '--tenant', 'alpha'], db.env);
      assert.equal(emptyUser.code, 2);
      assert.match(emptyUser.stderr, /--user takes an id of 1 to 256 characters/);
      const positional = cli(['users', 'erase', 'ada', '--tenant', 'alpha'], db.env);
      assert.equal(positional.code, 2);
      const filter = cli(['orgs', 'list', '--org', 'u1', '--tenant', 'alpha'], db.env);
      assert.equal(filter.code, 2);
      assert.match(filter.stderr, /usage: marginalia orgs list/);
      const several = cli(['users', 'erase', '--user', 'ada'], db.env);
      assert.equal(several.code, 2, 'two tenants and none named: no guessing whose data goes');
      assert.match(several.stderr, /2 tenants; name one with --tenant/);
      const unknown = cli(['orgs', 'list', '--tenant', 'mk_nope'], db.env);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No tenant mk_nope/);
      const unknownSub = cli(['orgs', 'bogus'], db.env);
      assert.equal(unknownSub.code, 2);
      assert.match(unknownSub.stderr, /Usage: marginalia orgs list/);
      assert.deepEqual(await userIds(alpha, 'u1'), ['ada', 'bob'], 'nothing was erased');
    });

    test('without --tenant, the only tenant there is; none at all is an error', async () => {
      const single = freshDatabase(kind);
      try {
        assert.equal(cli(['migrate'], single.env).code, 0);
        const empty = cli(['orgs', 'list'], single.env);
        assert.equal(empty.code, 1);
        assert.match(empty.stderr, /No tenant yet/);
        const s = await single.open();
        try {
          const creds = await createTenant(s, Date.now, 'only');
          await s.addOrganizations(
            (await s.findCredentials(creds.apiKey))!.tenant.id,
            [{ organizationId: 'solo', name: 'Solo' }],
            1,
          );
        } finally {
          await s.close();
        }
        const r = cli(['orgs', 'list'], single.env);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(
          JSON.parse(r.stdout).map((o: { id: string }) => o.id),
          ['solo'],
        );
      } finally {
        await single.drop();
      }
    });
  });
}
