import { describe } from 'node:test';
import type { Profile } from '../../src/domain/users.js';
import { TEST_STORE } from '../helpers/test-database.js';
import { T0, TA, ORG, NULL, show, eq, sorted, storeTest } from '../helpers/store-fixtures.js';

describe(`${TEST_STORE} store: users`, () => {
  storeTest('upsertUsers creates profiles; fields never given read as null', async (store) => {
    await store.upsertUsers(
      TA,
      ORG,
      null,
      [
        { userId: 'u1', name: 'Ann', email: 'ann@example.com', photoUrl: 'https://example.com/ann.png' },
        { userId: 'u2' },
        { userId: 'u3', email: 'u3@example.com' },
      ],
      T0,
    );
    eq(
      await store.findProfiles(TA, ORG, ['u1', 'u2', 'u3']),
      new Map<string, Profile>([
        ['u1', { userId: 'u1', name: 'Ann', email: 'ann@example.com', photoUrl: 'https://example.com/ann.png' }],
        ['u2', { userId: 'u2', name: null, email: null, photoUrl: null }],
        ['u3', { userId: 'u3', name: null, email: 'u3@example.com', photoUrl: null }],
      ]),
      'profiles',
    );
  });

  storeTest(
    'upsertUsers overwrites only the fields given; undefined and null keep stored values; "" is a value',
    async (store) => {
      const full = { name: 'Name', email: 'e@example.com', photoUrl: 'https://example.com/p.png' };
      await store.upsertUsers(
        TA,
        ORG,
        null,
        ['u1', 'u2', 'u3', 'u4', 'u5'].map((userId) => ({ userId, ...full })),
        T0,
      );
      await store.upsertUsers(
        TA,
        ORG,
        null,
        [
          { userId: 'u1', name: 'New name' },
          { userId: 'u2', name: undefined, email: undefined, photoUrl: undefined },
          { userId: 'u3', name: NULL, email: 'new@example.com', photoUrl: NULL },
          { userId: 'u4', name: '', email: '', photoUrl: '' },
          { userId: 'u5', photoUrl: 'https://example.com/new.png' },
        ],
        T0 + 1,
      );
      eq(
        await store.findProfiles(TA, ORG, ['u1', 'u2', 'u3', 'u4', 'u5']),
        new Map<string, Profile>([
          ['u1', { userId: 'u1', ...full, name: 'New name' }],
          ['u2', { userId: 'u2', ...full }],
          ['u3', { userId: 'u3', ...full, email: 'new@example.com' }],
          ['u4', { userId: 'u4', name: '', email: '', photoUrl: '' }],
          ['u5', { userId: 'u5', ...full, photoUrl: 'https://example.com/new.png' }],
        ]),
        'profiles after the second upsert',
      );
      // An empty string, once stored, is kept by a later write that leaves the field out.
      await store.upsertUsers(TA, ORG, null, [{ userId: 'u4', name: 'Back' }], T0 + 2);
      eq(
        await store.findProfiles(TA, ORG, ['u4']),
        new Map([['u4', { userId: 'u4', name: 'Back', email: '', photoUrl: '' }]]),
        'u4 after a third upsert',
      );
    },
  );

  storeTest(
    'upsertUsers records document and folder memberships; updateUsers sees exactly the members of its scope',
    async (store) => {
      // The document and the folder have the same id: a scope is its kind and id.
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'X' }, [{ userId: 'u-doc', name: 'D' }], T0);
      await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'X' }, [{ userId: 'u-folder', name: 'F' }], T0);
      await store.upsertUsers(TA, ORG, null, [{ userId: 'u-org', name: 'O' }], T0);
      const everyone = ['u-doc', 'u-folder', 'u-org', 'u-ghost'].map((userId) => ({ userId }));
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: 'X' }, everyone, T0 + 1)),
        ['u-doc'],
        'updateUsers in document X',
      );
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'folder', id: 'X' }, everyone, T0 + 1)),
        ['u-folder'],
        'updateUsers in folder X',
      );
      eq(
        sorted(await store.updateUsers(TA, ORG, null, everyone, T0 + 1)),
        ['u-doc', 'u-folder', 'u-org'],
        'updateUsers in the organization',
      );
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: 'Y' }, everyone, T0 + 1)),
        [],
        'updateUsers in document Y',
      );
      eq(
        sorted(await store.updateUsers(TA, ORG, { kind: 'document', id: 'x' }, everyone, T0 + 1)),
        [],
        'updateUsers in document x (other case)',
      );
      eq(
        sorted((await store.findProfiles(TA, ORG, ['u-doc', 'u-folder', 'u-org', 'u-ghost'])).keys()),
        ['u-doc', 'u-folder', 'u-org'],
        'profiles (a scoped upsert also makes an organization profile; updateUsers creates none)',
      );
    },
  );

  storeTest('a user upserted into several scopes is a member of each; repeating a membership is harmless', async (store) => {
    await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D1' }, [{ userId: 'u1' }], T0);
    await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D2' }, [{ userId: 'u1' }], T0);
    await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D1' }, [{ userId: 'u1', name: 'again' }], T0);
    await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'F1' }, [{ userId: 'u1' }], T0);
    for (const scope of [
      { kind: 'document', id: 'D1' },
      { kind: 'document', id: 'D2' },
      { kind: 'folder', id: 'F1' },
    ] as const) {
      eq(sorted(await store.updateUsers(TA, ORG, scope, [{ userId: 'u1' }], T0 + 1)), ['u1'], `updateUsers in ${show(scope)}`);
    }
    eq(
      sorted(await store.updateUsers(TA, ORG, { kind: 'folder', id: 'D1' }, [{ userId: 'u1' }], T0 + 1)),
      [],
      'updateUsers in folder D1',
    );
    eq((await store.findProfiles(TA, ORG, ['u1'])).get('u1')?.name, 'again', 'name');
  });

  storeTest('memberships and profiles belong to their organization', async (store) => {
    await store.upsertUsers(TA, 'org-1', { kind: 'document', id: 'D' }, [{ userId: 'u1', name: 'in org 1' }], T0);
    eq(
      sorted(await store.updateUsers(TA, 'org-2', { kind: 'document', id: 'D' }, [{ userId: 'u1', name: 'x' }], T0 + 1)),
      [],
      'updateUsers of document D in org-2',
    );
    eq(sorted(await store.updateUsers(TA, 'org-2', null, [{ userId: 'u1', name: 'x' }], T0 + 1)), [], 'updateUsers in org-2');
    eq((await store.findProfiles(TA, 'org-2', ['u1'])).size, 0, 'profiles in org-2');
    eq((await store.findProfiles(TA, 'org-1', ['u1'])).get('u1')?.name, 'in org 1', 'profile in org-1');
    await store.upsertUsers(TA, 'org-2', null, [{ userId: 'u1', name: 'in org 2' }], T0 + 2);
    eq((await store.findProfiles(TA, 'org-1', ['u1'])).get('u1')?.name, 'in org 1', 'profile in org-1 after writing org-2');
    eq((await store.findProfiles(TA, 'org-2', ['u1'])).get('u1')?.name, 'in org 2', 'profile in org-2');
  });

  storeTest(
    'updateUsers returns exactly the existing userIds, changes only the fields given, and never creates',
    async (store) => {
      const full = { name: 'Name', email: 'e@example.com', photoUrl: 'https://example.com/p.png' };
      await store.upsertUsers(
        TA,
        ORG,
        null,
        ['u1', 'u2', 'u3', 'u4'].map((userId) => ({ userId, ...full })),
        T0,
      );
      const updated = await store.updateUsers(
        TA,
        ORG,
        null,
        [
          { userId: 'u1', name: 'Renamed' },
          { userId: 'ghost', name: 'Ghost', email: 'ghost@example.com' },
          { userId: 'u2', name: NULL, email: '', photoUrl: undefined },
          { userId: 'u3' },
          { userId: 'ghost-2' },
        ],
        T0 + 1,
      );
      eq(updated instanceof Set, true, 'updateUsers returns a Set');
      eq(sorted(updated), ['u1', 'u2', 'u3'], 'updateUsers result');
      eq(
        await store.findProfiles(TA, ORG, ['u1', 'u2', 'u3', 'u4', 'ghost', 'ghost-2']),
        new Map<string, Profile>([
          ['u1', { userId: 'u1', ...full, name: 'Renamed' }],
          ['u2', { userId: 'u2', ...full, email: '' }],
          ['u3', { userId: 'u3', ...full }],
          ['u4', { userId: 'u4', ...full }],
        ]),
        'profiles after updateUsers',
      );
    },
  );

  storeTest('updateUsers in a scope leaves users outside the scope unchanged', async (store) => {
    await store.upsertUsers(TA, ORG, { kind: 'document', id: 'D' }, [{ userId: 'member', name: 'M' }], T0);
    await store.upsertUsers(TA, ORG, null, [{ userId: 'outsider', name: 'O' }], T0);
    const updated = await store.updateUsers(
      TA,
      ORG,
      { kind: 'document', id: 'D' },
      [
        { userId: 'member', name: 'M2' },
        { userId: 'outsider', name: 'O2' },
      ],
      T0 + 1,
    );
    eq(sorted(updated), ['member'], 'updateUsers result');
    const profiles = await store.findProfiles(TA, ORG, ['member', 'outsider']);
    eq([profiles.get('member')?.name, profiles.get('outsider')?.name], ['M2', 'O'], 'names after updateUsers');
  });

  storeTest('findProfiles returns only the users asked for that exist; [] gives an empty map', async (store) => {
    await store.upsertUsers(TA, ORG, null, [{ userId: 'u1', name: 'One' }, { userId: 'u2', name: 'Two' }, { userId: 'u3' }], T0);
    const empty = await store.findProfiles(TA, ORG, []);
    eq(empty instanceof Map && empty.size === 0, true, `findProfiles([]) is an empty Map, got ${show(empty)}`);
    eq(
      await store.findProfiles(TA, ORG, ['u1', 'nobody', 'u3']),
      new Map<string, Profile>([
        ['u1', { userId: 'u1', name: 'One', email: null, photoUrl: null }],
        ['u3', { userId: 'u3', name: null, email: null, photoUrl: null }],
      ]),
      'findProfiles(u1, nobody, u3)',
    );
    eq((await store.findProfiles(TA, ORG, ['nobody'])).size, 0, 'findProfiles(nobody) size');
    eq(sorted((await store.findProfiles(TA, ORG, ['u2', 'u2'])).keys()), ['u2'], 'findProfiles with a repeated id');
    eq((await store.findProfiles(TA, 'org-other', ['u1'])).size, 0, 'findProfiles in another organization');
  });
});

// ---------------------------------------------------------------------------------------------
