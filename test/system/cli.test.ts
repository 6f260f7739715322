// The operator CLI against a real SQLite file: output shapes, exit codes, and what each command changes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { authenticate, hashToken, tokenRecord } from '../../src/services/credentials.js';
import { cli, tempDir } from '../helpers/server-process.js';
import { sqliteStore } from '../helpers/test-database.js';
import type { Store } from '../../src/store/store.js';

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

  test('migrate brings a new database up to date and is idempotent', async () => {
    const db = database();
    assert.equal(cli(['migrate'], db.env).code, 0);
    assert.equal(cli(['migrate'], db.env).code, 0);
    assert.equal(await withStore(db.path, (s) => s.countTenants()), 0, 'migrate creates no tenant');
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
      [['help', 'tokens'], /Usage: marginalia tokens/],
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

  test('an unknown subcommand shows the help of its command, exit 2', () => {
    const r = cli(['keys', 'bogus'], db.env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "keys bogus"/);
    assert.match(r.stderr, /Usage: marginalia keys/);
  });
});
