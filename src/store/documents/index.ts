// Documents as objects.
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { AccessType, DocumentQuery, DocumentRecord, DocumentWrite } from '../../domain/organizations.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as documents from './documents.js';
import { documentsDeleted, documentsWritten } from './events.js';
import { idsInKeyOrder, type Work } from '../sql.js';

export const documentsStore = (core: StoreCore) => {
  /** A write that changes the documents named, each told of (document.update) as it now reads. */
  const changing = (
    method: string,
    tenantId: string,
    organizationId: string,
    documentIds: readonly string[],
    now: number,
    work: () => Work<void>,
  ): Maybe<void> =>
    core.emitting(method, tenantId, now, work, () => documentsWritten('document.update', tenantId, organizationId, documentIds));

  return {
    /** documents/add: creates each, renames it when named, places it in `folderId` (which must exist) when given. */
    addDocuments(
      tenantId: string,
      organizationId: string,
      folderId: string | null,
      entries: readonly DocumentWrite[],
      now: number,
      createFolder = false,
    ): Maybe<void> {
      return core.emitting(
        'addDocuments',
        tenantId,
        now,
        () => documents.add(tenantId, organizationId, folderId, entries, now, createFolder),
        () =>
          documentsWritten(
            'document.add',
            tenantId,
            organizationId,
            entries.map((e) => e.documentId),
          ),
      );
    },

    /** documents/update: renames those that exist; answers which did. */
    updateDocuments(
      tenantId: string,
      organizationId: string,
      entries: readonly DocumentWrite[],
      now: number,
    ): Maybe<Set<string>> {
      return core.emitting(
        'updateDocuments',
        tenantId,
        now,
        () => documents.update(tenantId, organizationId, entries, now),
        (updated) =>
          documentsWritten(
            'document.update',
            tenantId,
            organizationId,
            entries.map((e) => e.documentId).filter((id) => updated.has(id)),
          ),
      );
    },

    /** documents/get: up to `limit`, in id order. */
    getDocuments(tenantId: string, query: DocumentQuery): Maybe<DocumentRecord[]> {
      return core.read('getDocuments', () => documents.page(tenantId, query));
    },

    /**
     * documents/delete: with everything in them; answers the ids that existed. Each document as
     * organizations are deleted (deleteOrganizations), its parts in documents.ts.
     */
    async deleteDocuments(
      tenantId: string,
      organizationId: string,
      documentIds: readonly string[],
      now: number,
    ): Promise<Set<string>> {
      const deleted = new Set<string>();
      for (const documentId of idsInKeyOrder(documentIds)) {
        if (!(await core.write('markDocumentDeleting', () => documents.markDeleting(tenantId, organizationId, documentId))))
          continue;
        deleted.add(documentId);
        const at = { tenantId, organizationId, documentId };
        for (const part of documents.DOCUMENT_PARTS) {
          await core.inBatches('deleteDocuments', core.options.mostRowsPerBatch, (_, limit) => part(at, limit));
        }
        await core.emitting(
          'deleteDocuments',
          tenantId,
          now,
          () => documents.finishDeletion(tenantId, organizationId, documentId),
          (gone) => (gone ? documentsDeleted(organizationId, [documentId]) : []),
        );
      }
      return deleted;
    },

    /** documents/move: into `folderId` (which must exist; null: no folder). */
    moveDocuments(
      tenantId: string,
      organizationId: string,
      documentIds: readonly string[],
      folderId: string | null,
      now: number,
    ): Maybe<void> {
      return changing('moveDocuments', tenantId, organizationId, documentIds, now, () =>
        documents.move(tenantId, organizationId, documentIds, folderId, now),
      );
    },

    setDocumentAccess(
      tenantId: string,
      organizationId: string,
      documentIds: readonly string[],
      accessType: AccessType,
      now: number,
    ): Maybe<void> {
      return changing('setDocumentAccess', tenantId, organizationId, documentIds, now, () =>
        documents.setAccess(tenantId, organizationId, documentIds, accessType, now),
      );
    },

    setDocumentsDisabled(
      tenantId: string,
      organizationId: string,
      documentIds: readonly string[],
      disabled: boolean,
      now: number,
    ): Maybe<void> {
      return changing('setDocumentsDisabled', tenantId, organizationId, documentIds, now, () =>
        documents.setDisabled(tenantId, organizationId, documentIds, disabled, now),
      );
    },
  };
};

export type DocumentsStore = ReturnType<typeof documentsStore>;
