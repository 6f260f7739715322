// The facts the access check decides from (store/access-roles/, one statement) on the configured database, for what
// an end-user token's stream and requests ask (services/end-users.ts): membership, and the access types with users
// listed on a document or its folder. Roles, the other half, are in test/routes/permissions.test.ts.
import { describe } from 'node:test';
import { accessOf } from '../../src/domain/access.js';
import type { Store } from '../../src/store/store.js';
import { eq, ORG, show, storeTest, T0, TA, TB } from '../helpers/store-fixtures.js';

/** Whether the user is a member, and may read the document. */
async function standing(store: Store, tenantId: string, documentId: string, userId: string) {
  const { facts } = await store.accessFacts(tenantId, ORG, { documentId }, userId, 100);
  return { member: facts.member, document: accessOf(facts, T0) !== 'none' };
}

describe('access facts', () => {
  storeTest(
    'public opens to anyone, organizationPrivate to its members, restricted to users listed on it or its folder',
    async (store) => {
      const now = T0;
      await store.upsertUsers(TA, ORG, null, [{ userId: 'member' }], now);
      await store.upsertUsers(TA, ORG, { kind: 'document', id: 'restricted' }, [{ userId: 'listed' }], now);
      await store.addFolders(TA, ORG, [{ folderId: 'f', name: 'F', parentId: null }], now);
      await store.upsertUsers(TA, ORG, { kind: 'folder', id: 'f' }, [{ userId: 'in-folder' }], now);
      await store.addDocuments(
        TA,
        ORG,
        null,
        [
          { documentId: 'public', name: null },
          { documentId: 'restricted', name: null },
        ],
        now,
      );
      await store.addDocuments(TA, ORG, 'f', [{ documentId: 'filed', name: null }], now);
      await store.setDocumentAccess(TA, ORG, ['public'], 'public', now);
      await store.setDocumentAccess(TA, ORG, ['restricted', 'filed'], 'restricted', now);
      const cases: [string, string, boolean, boolean][] = [
        // user, document, member, may see the document
        ['member', 'public', true, true],
        ['member', 'unknown-doc', true, true],
        ['member', 'restricted', true, false],
        ['listed', 'restricted', true, true],
        ['in-folder', 'filed', true, true],
        ['in-folder', 'restricted', true, false],
        ['stranger', 'public', false, true],
        ['stranger', 'unknown-doc', false, false],
        ['stranger', 'filed', false, false],
      ];
      for (const [user, doc, member, document] of cases) {
        const got = await standing(store, TA, doc, user);
        eq(got, { member, document }, `${user} on ${doc}: ${show(got)}`);
      }
      // Tenant B has no such user and no such document: organizationPrivate, and not a member.
      eq(await standing(store, TB, 'public', 'member'), { member: false, document: false }, 'another tenant');
    },
  );
});
