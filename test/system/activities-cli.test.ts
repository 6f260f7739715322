// The operator's actions as activities (docs/decisions.md, "Activities"): with MARGINALIA_ACTIVITIES_ENABLED=1,
// the CLI's key and token changes and its erasures are the tenant's activities, under no organization, with the
// operator as actor, a token's prefix and never a token, and an erasure naming no one it erased.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, tempDir } from '../helpers/server-process.js';
import { sqliteStore } from '../helpers/test-database.js';

test('keys, tokens and erasures from the CLI are activities of the tenant', async () => {
  const path = join(tempDir(), 'activities-cli.db');
  const env = { DATABASE_URL: `sqlite:${path}`, MARGINALIA_ACTIVITIES_ENABLED: '1' };
  const creds = JSON.parse(cli(['keys', 'create', '--name', 'acme'], env).stdout);
  const token = JSON.parse(cli(['tokens', 'create', creds.apiKey], env).stdout);
  assert.equal(cli(['keys', 'disable', creds.apiKey], env).code, 0);
  assert.equal(cli(['users', 'erase', '--user', 'alice', '--tenant', creds.apiKey], env).code, 0);
  const store = sqliteStore(path);
  await store.migrate();
  try {
    const tenant = (await store.findCredentials(creds.apiKey))!.tenant;
    const rows = await store.getActivities(tenant.id, {
      organizationId: '',
      documentId: null,
      targetEntityId: null,
      featureTypes: null,
      actionTypes: null,
      userId: '@operator',
      activityIds: null,
      ascending: true,
      after: null,
      limit: 10,
    });
    assert.deepEqual(
      rows.map((r) => r.actionType),
      ['operator.key_create', 'operator.token_create', 'operator.key_disable', 'user.data_delete'],
    );
    const all = JSON.stringify(rows);
    assert.ok(!all.includes(token.authToken) && !all.includes(creds.authToken), 'no token, only prefixes');
    assert.ok(!all.includes('alice'), 'the erasure names no one it erased');
  } finally {
    await store.close();
  }
});
