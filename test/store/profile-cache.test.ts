// The profile cache over a real store: what it reads, what it keeps, and what it lets go. Runs on the
// database the suite runs on (SQLite, then PostgreSQL).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIT_EVERY_MS } from '../../src/services/admission.js';
import { profileBytes, ProfileCache, WHOLE_ORGANIZATION } from '../../src/services/profiles.js';
import type { Store } from '../../src/store/store.js';
import { freshDatabase, type FreshDatabase } from '../helpers/test-database.js';
import { T0, TA, tenant } from '../helpers/store-fixtures.js';
import { tokenRecord } from '../../src/services/credentials.js';
import { PassingProfiles } from '../../src/domain/users.js';

let db: FreshDatabase;
let store: Store;
let lookups: string[][];
/** The real store, with its profile lookups written down. */
let counted: Store;

before(async () => {
  db = freshDatabase();
  store = await db.open();
  await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
  for (const org of ['a', 'b']) {
    await store.upsertUsers(
      TA,
      org,
      null,
      ['1', '2', '3', '4', '5'].map((n) => ({ userId: `${org}${n}`, name: `${org}${n}` })),
      T0,
    );
  }
  // A large organization: more profiles than are read whole.
  const many = Array.from({ length: WHOLE_ORGANIZATION + 1 }, (_, i) => ({ userId: `m${i}`, name: `m${i}` }));
  await store.upsertUsers(TA, 'many', null, many, T0);
  counted = Object.create(store, {
    findProfiles: {
      value: (tenantId: string, organizationId: string, userIds: string[]) => {
        lookups.push([organizationId, ...userIds]);
        return store.findProfiles(tenantId, organizationId, userIds);
      },
    },
    organizationProfiles: {
      value: (tenantId: string, organizationId: string, limit: number) => {
        lookups.push([organizationId, `whole, at most ${limit}`]);
        return store.organizationProfiles(tenantId, organizationId, limit);
      },
    },
  });
});

after(async () => {
  await store.close();
  await db.drop();
});

const MB = 1024 * 1024;
/** What one of the small profiles above costs held (the bound is in bytes). */
const SMALL = profileBytes('a1', { userId: 'a1', name: 'a1', email: null, photoUrl: null });

/** What an organization holding one small profile costs: its entry and the profile. */
const entryBytes = (org: string) => 24 + `${TA}\n${org}`.length + 300;
const ONE = entryBytes('a') + SMALL;
/** A clock at which every organization may come in: ADMIT_EVERY_MS passes between any two of its readings. */
const ticking = () => {
  let now = 0;
  return () => (now += ADMIT_EVERY_MS);
};

const names = (p: ReadonlyMap<string, { name: string | null } | undefined>, ids: string[]) =>
  ids.map((id) => p.get(id)?.name ?? null);

test('held profiles are read once per organization and version; a new version reads them again', async () => {
  lookups = [];
  // Less than a whole organization of small profiles: none is read whole.
  const cache = new ProfileCache(counted, (100 * SMALL) / MB);
  assert.deepEqual(names(await cache.resolve(TA, 'a', 1, ['a1', 'a2', 'a1', 'x']), ['a1', 'a2', 'x']), ['a1', 'a2', null]);
  assert.deepEqual(names(await cache.resolve(TA, 'a', 1, ['a2', 'x']), ['a2', 'x']), ['a2', null]);
  assert.deepEqual(lookups, [['a', 'a1', 'a2', 'x']], 'one lookup, duplicates and absent users included');
  await store.updateUsers(TA, 'a', null, [{ userId: 'a2', name: 'renamed' }], T0 + 1);
  assert.deepEqual(names(await cache.resolve(TA, 'a', 2, ['a2']), ['a2']), ['renamed']);
  assert.deepEqual(lookups.at(-1), ['a', 'a2'], 'the new version is read again');
});

test('past the bound, the organization held longest goes; one organization past it alone is kept by none', async () => {
  lookups = [];
  // Room for one organization (its own entry costs less than a profile) with three small profiles.
  const cache = new ProfileCache(counted, (4 * SMALL) / MB, ticking());
  await cache.resolve(TA, 'a', 1, ['a1', 'a2']);
  await cache.resolve(TA, 'b', 1, ['b1', 'b2']);
  await cache.resolve(TA, 'b', 1, ['b1']);
  assert.equal(lookups.length, 2, 'b held');
  await cache.resolve(TA, 'a', 1, ['a1']);
  assert.equal(lookups.length, 3, 'a was let go to make room for b');
  assert.deepEqual(
    names(await cache.resolve(TA, 'b', 1, ['b1', 'b2', 'b3', 'b4', 'b5']), ['b1', 'b5']),
    ['b1', 'b5'],
    'an answer larger than the bound is still whole',
  );
  await cache.resolve(TA, 'b', 1, ['b5']);
  assert.deepEqual(lookups.at(-1), ['b', 'b5'], 'and not kept');
  const none = new ProfileCache(counted, 0);
  assert.deepEqual(names(await none.resolve(TA, 'a', 1, ['a3']), ['a3']), ['a3']);
  assert.deepEqual(names(await none.resolve(TA, 'a', 1, ['a3']), ['a3']), ['a3']);
  assert.deepEqual(
    lookups.slice(-2),
    [
      ['a', 'a3'],
      ['a', 'a3'],
    ],
    'a bound of 0 reads every time',
  );
});

test('the organization used longest ago goes first', async () => {
  // Room for a and b with a profile each, and for c's entry, but not for c's absent user besides.
  const cache = new ProfileCache(counted, (2 * ONE + entryBytes('c') + 100 + 26 - 1) / MB, ticking());
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'b', 1, ['b1']);
  await cache.resolve(TA, 'a', 1, ['a1']);
  lookups = [];
  await cache.resolve(TA, 'c', 1, ['c1']);
  await cache.resolve(TA, 'a', 1, ['a1']);
  assert.deepEqual(lookups, [['c', 'c1']], 'a, used after b, is still held');
  await cache.resolve(TA, 'b', 1, ['b1']);
  assert.deepEqual(lookups.at(-1), ['b', 'b1'], 'b was let go for c');
});

test('once full, a new organization comes in at most once per ADMIT_EVERY_MS; the others are looked up and not kept', async () => {
  let now = 1_000;
  // Room for two organizations holding a profile each; c and x (no such users) cost less.
  const cache = new ProfileCache(counted, (2.5 * ONE) / MB, () => now);
  for (const org of ['a', 'b', 'c']) await cache.resolve(TA, org, 1, [`${org}1`]);
  // Full since a went for c: the first organization after that comes in at once.
  await cache.resolve(TA, 'x', 1, ['x1']);
  const held = cache.bytes;
  lookups = [];
  // In the same millisecond a is looked up for each read, and not kept.
  const passing = await cache.resolve(TA, 'a', 1, ['a1', 'a3', 'a1', 'x']);
  assert.deepEqual(names(passing, ['a1', 'a3', 'x']), ['a1', 'a3', null]);
  assert.ok(passing instanceof PassingProfiles, 'answers keep nothing per profile for them');
  await cache.resolve(TA, 'a', 1, ['a3']);
  for (const org of ['b', 'c', 'x']) await cache.resolve(TA, org, 1, [`${org}1`]);
  assert.deepEqual(
    lookups,
    [
      ['a', 'a1', 'a3', 'x'],
      ['a', 'a3'],
    ],
    'a not kept; b, c and x still held',
  );
  assert.equal(cache.bytes, held, 'what was not kept costs nothing');
  // A new version of a held organization is replaced without waiting.
  await cache.resolve(TA, 'c', 2, ['c1']);
  await cache.resolve(TA, 'c', 2, ['c1']);
  assert.deepEqual(lookups.slice(2), [['c', 'c1']], 'c read again at its new version, and held');
  assert.equal(cache.bytes, held);
  // A read that shows nobody takes no place.
  assert.equal((await cache.resolve(TA, 'y', 1, [])).size, 0);
  now += ADMIT_EVERY_MS - 1;
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'a', 1, ['a1']);
  assert.deepEqual(
    lookups.slice(3),
    [
      ['a', 'a1'],
      ['a', 'a1'],
    ],
    'not yet: y took no place',
  );
  now += 1;
  lookups = [];
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'c', 2, ['c1']);
  await cache.resolve(TA, 'b', 1, ['b1']);
  assert.deepEqual(
    lookups,
    [
      ['a', 'a1'],
      ['b', 'b1'],
    ],
    'a came in and is held; x and b, used longest ago, went for it',
  );
  cache.clear();
  lookups = [];
  await cache.resolve(TA, 'b', 1, ['b1']);
  await cache.resolve(TA, 'b', 1, ['b1']);
  assert.deepEqual(lookups, [['b', 'b1']], 'after a release the cache is not full: b comes in at once');
});

test('a full cache that comes to hold half its bound or less lets new organizations in at once again', async () => {
  const cache = new ProfileCache(counted, (2.8 * ONE) / MB, () => 1_000);
  // x fills it (a goes), and y, the first since, comes in (b goes): c, x and y are held.
  for (const org of ['a', 'b', 'c', 'x', 'y']) await cache.resolve(TA, org, 1, [`${org}1`]);
  lookups = [];
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'a', 1, ['a1']);
  assert.equal(lookups.length, 2, 'full: a is not let in');
  // c's new version is read again in its place: x and y alone hold half the bound or less meanwhile.
  await cache.resolve(TA, 'c', 2, ['c1']);
  lookups = [];
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'a', 1, ['a1']);
  assert.deepEqual(lookups, [['a', 'a1']], 'a comes in, in the same millisecond');
});

test('an organization small enough is read whole once per version: then nothing of it is looked up', async () => {
  lookups = [];
  const cache = new ProfileCache(counted, 64);
  const whole = `whole, at most ${WHOLE_ORGANIZATION + 1}`;
  assert.deepEqual(names(await cache.resolve(TA, 'b', 5, ['b1', 'nobody']), ['b1', 'nobody']), ['b1', null]);
  assert.deepEqual(names(await cache.resolve(TA, 'b', 5, ['b2', 'b5', 'ghost']), ['b2', 'b5', 'ghost']), ['b2', 'b5', null]);
  assert.deepEqual(lookups, [['b', whole]], 'one read of the whole organization, and no lookup after it');
  await cache.resolve(TA, 'b', 6, ['b1']);
  assert.deepEqual(
    lookups,
    [
      ['b', whole],
      ['b', whole],
    ],
    'read whole again at a new version',
  );
  lookups = [];
  assert.deepEqual(names(await cache.resolve(TA, 'many', 1, ['m7', 'm1000']), ['m7', 'm1000']), ['m7', 'm1000']);
  await cache.resolve(TA, 'many', 1, ['m7', 'm8']);
  assert.deepEqual(
    lookups,
    [
      ['many', whole],
      ['many', 'm7', 'm1000'],
      ['many', 'm8'],
    ],
    'a larger organization is looked up user by user after one try',
  );
});

test('the bound is in bytes: long profiles take more of it, and the cache never holds more than it', async () => {
  const long = (org: string, i: number) => ({
    userId: `${org}-${i}`.padEnd(256, 'u'),
    name: `${i}`.padEnd(256, '名'),
    email: `${i}@`.padEnd(254, 'e'),
    photoUrl: `https://p.example/${i}`.padEnd(2048, 'p'),
  });
  const one = long('x', 0);
  assert.ok(profileBytes(one.userId, one) > 10 * SMALL, `a long profile costs ${profileBytes(one.userId, one)} bytes`);
  // Each organization is more than a whole organization's worth of lookups: each is read user by user.
  for (const org of ['long-1', 'long-2']) {
    await store.upsertUsers(
      TA,
      org,
      null,
      Array.from({ length: 300 }, (_, i) => long(org, i)),
      T0,
    );
  }
  lookups = [];
  const bound = 0.5;
  const cache = new ProfileCache(counted, bound);
  for (const org of ['long-1', 'long-2']) {
    // Twenty at a time, as pages ask for them: a whole organization is more than the bound.
    for (let from = 0; from < 300; from += 20) {
      const ids = Array.from({ length: 20 }, (_, i) => long(org, from + i).userId);
      const shown = await cache.resolve(TA, org, 1, ids);
      assert.equal(shown.get(ids[19]!)?.name, long(org, from + 19).name, 'every profile asked for is shown, held or not');
      assert.ok(cache.bytes <= bound * MB, `${cache.bytes} bytes held`);
    }
  }
  assert.ok(cache.bytes > 0.25 * MB, 'what fits is kept');
});

test('at rest the cache lets go of every organization, and reads them again when asked', async () => {
  lookups = [];
  const cache = new ProfileCache(counted, 64);
  await cache.resolve(TA, 'a', 1, ['a1']);
  await cache.resolve(TA, 'a', 1, ['a2']);
  assert.equal(lookups.length, 1, 'held');
  assert.ok(cache.bytes > 0);
  cache.clear();
  assert.equal(cache.bytes, 0);
  assert.deepEqual(names(await cache.resolve(TA, 'a', 1, ['a1']), ['a1']), ['a1']);
  assert.equal(lookups.length, 2, 'read again after the release');
});
