// The replay's plans of the permission pages (auth/permissions/add, get, remove, auth/generate_signature):
// each example is answered as its page documents.
import type { Plan } from '../../helpers/vendor-plan.js';

export const PERMISSION_PLANS: Record<string, Plan> = {
  // Roles may name resources not made yet (a token's resources may too): the examples' placeholders are written as sent.
  '/v2/auth/permissions/add': { expect: () => ({ exact: true }) },
  '/v2/auth/permissions/remove': { expect: () => ({ exact: true }) },
  '/v2/auth/permissions/get': {
    // The page answers for user "1.1" with a folder and a document its request does not name: the request is
    // sent for that user and document, the folder holding the document, each with the roles the answer shows.
    setup: async (ctx) => {
      ctx.replace('samarth', '1.1', 'the answer is keyed by user "1.1": the request names that user');
      ctx.replace(
        'freestyle-comments1',
        'document1-26-may-2025-folder2',
        'the answer shows document1-26-may-2025-folder2: the request names that document',
      );
      await ctx.call('/v2/organizations/folders/add', { organizationId: 'org1', folders: [{ folderId: 'folder2' }] });
      await ctx.call('/v2/organizations/documents/add', {
        organizationId: 'org1',
        folderId: 'folder2',
        documents: [{ documentId: 'document1-26-may-2025-folder2' }],
      });
      await ctx.call('/v1/organizations/folders/access/update', {
        organizationId: 'org1',
        folderIds: ['folder2'],
        accessType: 'restricted',
      });
      await ctx.call('/v2/organizations/documents/access/update', {
        organizationId: 'org1',
        documentIds: ['document1-26-may-2025-folder2'],
        accessType: 'restricted',
      });
      await ctx.call('/v2/auth/permissions/add', {
        user: { userId: '1.1' },
        permissions: {
          resources: [
            { type: 'organization', id: 'org1', accessRole: 'editor' },
            { type: 'folder', id: 'folder2', organizationId: 'org1', accessRole: 'editor' },
            { type: 'document', id: 'document1-26-may-2025-folder2', organizationId: 'org1', accessRole: 'viewer' },
          ],
        },
      });
    },
    expect: () => ({ exact: true }),
  },
  // The signature is an HMAC under the tenant's own key: the page's value is an example of its form.
  '/v2/auth/generate_signature': {
    expect: () => ({
      loose: ['signature'],
      note: 'the signature is compared by type: an HMAC under the tenant key',
    }),
  },
};
