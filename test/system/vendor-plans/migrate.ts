// The replay's plans for document migration (docs/api.md, "Document migration") and /v2's folders/delete:
// each page's example against data its setup writes first.
import { type Context, DOC, ORG, type Plan, thread } from '../../helpers/vendor-plan.js';

const MIGRATE = '/v2/organizations/documents/migrate';
const STATUS = '/v2/organizations/documents/migrate/status';

/** Polls the status until the worker of the server has ended the job (10 s at most). */
async function completed(ctx: Context, migrationId: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 10_000; ) {
    const r = await ctx.call(STATUS, { organizationId: ORG, migrationId });
    if (r.data.status === 'completed') return;
    if (r.data.status === 'failed') throw new Error(`the migration failed: ${JSON.stringify(r.data)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the migration ${migrationId} did not complete`);
}

export const MIGRATE_PLANS: Record<string, Plan> = {
  // yourDocumentId holds a thread; yourNewDocumentId does not exist: the migration starts.
  [MIGRATE]: { setup: (ctx) => thread(ctx, 'yourAnnotationId') },
  // A migration of yourDocumentId, run by the server's worker to its end: the page shows a completed one.
  [STATUS]: {
    setup: async (ctx) => {
      await thread(ctx, 'yourAnnotationId');
      const started = await ctx.call(MIGRATE, { organizationId: ORG, documentId: DOC, newDocumentId: 'yourNewDocumentId' });
      const migrationId = String(started.data.migrationId);
      await completed(ctx, migrationId);
      ctx.replace('yourMigrationId', migrationId, 'the migrationId is the one the migration it reads was started with');
    },
  },
  // folderId2 of org10, with a subfolder and a document: all deleted; the answer's data is null, as printed.
  '/v2/organizations/folders/delete': {
    setup: async (ctx) => {
      await ctx.call('/v1/organizations/folders/add', {
        organizationId: 'org10',
        folders: [{ folderId: 'folderId2' }, { folderId: 'folderId3', parentFolderId: 'folderId2' }],
      });
      await ctx.call('/v1/organizations/documents/add', {
        organizationId: 'org10',
        folderId: 'folderId3',
        documents: [{ documentId: 'yourDocumentId' }],
      });
    },
    expect: () => ({ exact: true }),
  },
};
