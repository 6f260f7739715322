// Migration 46 (attachments) on a database the previous release wrote, on the configured database: comments that
// carry foreign attachment references keep them as data; afterwards uploads are linked by the comments that refer
// to them, and a deleted comment queues its upload's file for removal in the same transaction.
import { describe } from 'node:test';
import { tokenRecord } from '../../src/services/credentials.js';
import { beforeAttachments } from '../helpers/previous-release.js';
import {
  annotation,
  DOC,
  eq,
  newComment,
  nextTurn,
  ORG,
  storeTest,
  T0,
  TA,
  tenant,
  withSecondStore,
} from '../helpers/store-fixtures.js';

const FOREIGN = [{ attachmentId: 100001, name: 'screenshot.png', url: 'https://storage.example/screenshot.png' }];

describe('migration 46: attachments', () => {
  storeTest(
    'a database as migration 43 left it migrates forward; foreign references stay, uploads link and unlink',
    async (store, db) => {
      await store.createTenant(tenant(TA, 'mk_a'), tokenRecord('mt_a', T0));
      await store.addAnnotations(TA, ORG, DOC, [annotation('old', [{ ...newComment(1, 'before'), attachments: FOREIGN }])], T0);
      await beforeAttachments(db);
      const tables = async () =>
        [...(await db.textColumns()).keys()].filter((name) => name === 'attachments' || name === 'attachment_removals').sort();
      eq(await tables(), [], 'as that release left it');
      await withSecondStore(db, async (reopened) => {
        eq(await tables(), ['attachment_removals', 'attachments'], 'migration 46 made them');
        const kept = await db.query(`SELECT attachments FROM comments WHERE annotation_id = 'old'`);
        eq(JSON.parse(String(kept[0]!.attachments)), FOREIGN, 'the foreign reference as it was');
        const upload = { organizationId: ORG, documentId: DOC, name: 'a.png', mimeType: 'image/png', expiresAt: T0 + 10 };
        await reopened.beginUpload(TA, { ...upload, attachmentId: 42, storageKey: 'ab/ab000000000000000000000000000000' }, T0);
        eq(await reopened.finishUpload(TA, 42, 5, 'f'.repeat(64)), true, 'stored');
        // The foreign reference's id is no upload's: only the entry with our url links.
        const refs = [...FOREIGN, { attachmentId: 42, url: '/v1/attachments/42' }];
        await reopened.addAnnotations(
          TA,
          ORG,
          DOC,
          [annotation('new', [{ ...newComment(1, 'with file'), attachments: refs }])],
          T0,
        );
        const linked = await reopened.attachment(TA, 42);
        eq([linked?.annotationId, linked?.commentId], ['new', 1], 'the comment took the upload');
        eq(await reopened.expireUploads(T0 + 100, 10), 0, 'a linked upload never expires');
        // A document migration moves comments row by row: their uploads go along.
        await db.exec(`UPDATE comments SET document_id = 'moved' WHERE annotation_id = 'new'`);
        // SQLite's reads of one turn share a read transaction: the next read looks after the write, in a new turn.
        await nextTurn();
        eq((await reopened.attachment(TA, 42))?.documentId, 'moved', 'the upload followed its comment');
        await db.exec(`DELETE FROM comments WHERE annotation_id = 'new'`);
        await nextTurn();
        eq(await reopened.attachment(TA, 42), null, 'the upload went with its comment');
        eq(
          (await reopened.dueAttachmentRemovals(T0, 10)).map((r) => r.storageKey),
          ['ab/ab000000000000000000000000000000'],
          'its file queued in that transaction',
        );
      });
    },
  );
});
