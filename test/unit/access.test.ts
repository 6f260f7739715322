// Who may do what on a document (docs/decisions.md, "Permissions"): accessOf as a table of cases, then as a
// property against a model written the other way round (every grant listed with its specificity, the most
// specific live one kept; who opens the document as a list of reasons).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type AccessFacts, accessOf, allows, type HeldRole } from '../../src/domain/access.js';
import type { AccessType } from '../../src/domain/organizations.js';

const NOW = 1_000_000;
const viewer: HeldRole = { role: 'viewer', expiresAt: null };
const editor: HeldRole = { role: 'editor', expiresAt: null };
const expired = (role: HeldRole): HeldRole => ({ ...role, expiresAt: NOW });
const until = (role: HeldRole): HeldRole => ({ ...role, expiresAt: NOW + 1 });

const facts = (over: Partial<Omit<AccessFacts, 'roles'>> & { roles?: Partial<AccessFacts['roles']> } = {}): AccessFacts => ({
  accessType: over.accessType ?? 'organizationPrivate',
  member: over.member ?? false,
  listed: over.listed ?? false,
  roles: { document: null, folders: [], organization: null, ...over.roles },
});

test('the table: access types, membership, listing, roles, their order and their expiry', () => {
  const cases: [string, AccessFacts, ReturnType<typeof accessOf>][] = [
    ['organizationPrivate, a stranger', facts(), 'none'],
    ['organizationPrivate, a member', facts({ member: true }), 'editor'],
    [
      'organizationPrivate, a member with an organization viewer role',
      facts({ member: true, roles: { organization: viewer } }),
      'viewer',
    ],
    ['organizationPrivate, no profile but a role on the organization', facts({ roles: { organization: viewer } }), 'viewer'],
    ['organizationPrivate, no profile but a role on the document', facts({ roles: { document: editor } }), 'editor'],
    ['public, a stranger', facts({ accessType: 'public' }), 'editor'],
    ['public, a viewer on the organization', facts({ accessType: 'public', roles: { organization: viewer } }), 'viewer'],
    ['restricted, a member not listed', facts({ accessType: 'restricted', member: true }), 'none'],
    ['restricted, listed', facts({ accessType: 'restricted', listed: true }), 'editor'],
    [
      'restricted, an organization role alone',
      facts({ accessType: 'restricted', member: true, roles: { organization: editor } }),
      'none',
    ],
    [
      'restricted, listed, an organization viewer',
      facts({ accessType: 'restricted', listed: true, roles: { organization: viewer } }),
      'viewer',
    ],
    ['restricted, a role on a folder above', facts({ accessType: 'restricted', roles: { folders: [null, viewer] } }), 'viewer'],
    ['restricted, a role on the document', facts({ accessType: 'restricted', roles: { document: viewer } }), 'viewer'],
    [
      'the document says otherwise than its folder',
      facts({ member: true, roles: { document: editor, folders: [viewer] } }),
      'editor',
    ],
    ['the nearest folder wins', facts({ member: true, roles: { folders: [viewer, editor] } }), 'viewer'],
    [
      'a folder role over the organization one',
      facts({ member: true, roles: { folders: [editor], organization: viewer } }),
      'editor',
    ],
    ['an expired document role counts for nothing', facts({ member: true, roles: { document: expired(viewer) } }), 'editor'],
    ['expired, it opens nothing', facts({ accessType: 'restricted', roles: { document: expired(editor) } }), 'none'],
    [
      'expired at the nearest folder: the next one applies',
      facts({ member: true, roles: { folders: [expired(editor), viewer] } }),
      'viewer',
    ],
    ['not yet expired', facts({ accessType: 'restricted', roles: { document: until(viewer) } }), 'viewer'],
  ];
  for (const [name, f, want] of cases) assert.equal(accessOf(f, NOW), want, name);
});

test('allows: a viewer reads, an editor also writes, no access does neither', () => {
  assert.deepEqual(
    (['none', 'viewer', 'editor'] as const).map((a) => [allows(a, 'read'), allows(a, 'write')]),
    [
      [false, false],
      [true, false],
      [true, true],
    ],
  );
});

/** The model: grants by specificity (0 the document, 1.. the folders, then the organization), filtered, sorted. */
function model(f: AccessFacts, now: number): ReturnType<typeof accessOf> {
  const grants = [
    { at: 0, scope: 'document', held: f.roles.document },
    ...f.roles.folders.map((held, i) => ({ at: 1 + i, scope: 'folder', held })),
    { at: 1 + f.roles.folders.length, scope: 'organization', held: f.roles.organization },
  ].filter((g) => g.held !== null && (g.held.expiresAt === null || now < g.held.expiresAt));
  grants.sort((a, b) => a.at - b.at);
  const reasons: string[] = [];
  if (f.accessType === 'public') reasons.push('public');
  if (f.accessType === 'organizationPrivate' && (f.member || grants.length > 0)) reasons.push('in the organization');
  if (f.accessType === 'restricted' && (f.listed || grants.some((g) => g.scope !== 'organization'))) reasons.push('invited');
  if (reasons.length === 0) return 'none';
  return grants[0]?.held?.role ?? 'editor';
}

test('property: accessOf agrees with the model', () => {
  const role = fc.option(
    fc.record({
      role: fc.constantFrom('viewer' as const, 'editor' as const),
      expiresAt: fc.option(fc.integer({ min: NOW - 2, max: NOW + 2 }), { nil: null }),
    }),
    { nil: null },
  );
  const arbitrary = fc.record({
    accessType: fc.constantFrom<AccessType>('public', 'organizationPrivate', 'restricted'),
    member: fc.boolean(),
    listed: fc.boolean(),
    roles: fc.record({ document: role, folders: fc.array(role, { maxLength: 4 }), organization: role }),
  });
  fc.assert(
    fc.property(arbitrary, (f) => accessOf(f, NOW) === model(f, NOW)),
    { numRuns: 5000 },
  );
});
