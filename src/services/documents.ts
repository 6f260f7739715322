// Documents as objects (docs/api.md, "Documents"): organizations/documents/add, get, update, delete, move, and
// their access type and disabled state.
import type { Static } from 'typebox';
import { shownDocument } from '../domain/answers/objects.js';
import { type Maybe, then } from '../maybe.js';
import type {
  DocumentsAccessData,
  DocumentsAddData,
  DocumentsDeleteData,
  DocumentsDisableData,
  DocumentsGetData,
  DocumentsMoveData,
  DocumentsUpdateData,
} from '../schemas/documents.js';
import { ROOT } from '../schemas/folders.js';
import type { Document } from '../schemas/responses.js';
import type { DocumentWrite } from '../domain/organizations.js';
import type { Caller, Services } from './context.js';
import { internalDocumentId } from '../domain/ids.js';
import { asSet, filterDigest, keyPaged } from './page-token.js';
import { filterList, givenTimes, keyedOutcomes, orNull, requireUnique } from './rules.js';

/** A folder a request names: "root" is no folder. */
const folderOf = (folderId: string): string | null => (folderId === ROOT ? null : folderId);

const writes = (documents: DocumentsAddData['documents']): DocumentWrite[] => {
  requireUnique(documents, (d) => d.documentId, ['documents'], 'documentId');
  return documents.map((d) => ({ documentId: d.documentId, name: orNull(d.documentName) }));
};

/**
 * A document that does not exist: its entry carries the caller's documentId, where one that exists
 * carries its internal id (the original service's pages show both so).
 */
const NOT_FOUND = { message: 'Document does not exist', code: 'not-found' as const };

/** The per-document answer of documents/add, update and delete, by documentId. */
export type DocumentOutcomes = Record<string, { success: boolean; id: string; message: string; code?: 'not-found' }>;

/**
 * documents/add: creates each document (and its organization), with the times given (docs/api.md, "What an import
 * keeps"), renames it when named, files it when a folder is given.
 */
export function addDocuments({ store, clock }: Services, caller: Caller, input: DocumentsAddData) {
  const entries = writes(input.documents).map((e, i) => ({ ...e, ...givenTimes(input.documents[i]!) }));
  const folderId = input.folderId == null ? null : folderOf(input.folderId);
  return then(store.addDocuments(caller.id, input.organizationId, folderId, entries, clock(), input.createFolder === true), () =>
    Object.fromEntries(
      entries.map(({ documentId: id }) => [
        id,
        { success: true, id: internalDocumentId(caller.id, input.organizationId, id), message: 'Added Successfully' },
      ]),
    ),
  );
}

/** documents/update: renames those that exist; the others are answered as not found. */
export function updateDocuments({ store, clock }: Services, caller: Caller, input: DocumentsUpdateData): Maybe<DocumentOutcomes> {
  const entries = writes(input.documents);
  return then(store.updateDocuments(caller.id, input.organizationId, entries, clock()), (updated) =>
    keyedOutcomes(
      entries.map((e) => e.documentId),
      [...updated],
      (id, success) =>
        success
          ? { success, id: internalDocumentId(caller.id, input.organizationId, id), message: 'Updated Successfully' }
          : { success, id, ...NOT_FOUND },
    ),
  );
}

/** documents/delete: each that exists, with everything in it. */
export function deleteDocuments({ store, clock }: Services, caller: Caller, input: DocumentsDeleteData): Maybe<DocumentOutcomes> {
  const ids = input.documentIds;
  return then(store.deleteDocuments(caller.id, input.organizationId, ids, clock()), (deleted) =>
    keyedOutcomes(ids, [...deleted], (id, success) =>
      success
        ? { success, id: internalDocumentId(caller.id, input.organizationId, id), message: 'Deleted Successfully' }
        : { success, id, ...NOT_FOUND },
    ),
  );
}

/** documents/move: into a folder that exists (else NOT_FOUND), or out of any with "root"; answers null. */
export function moveDocuments({ store, clock }: Services, caller: Caller, input: DocumentsMoveData): Maybe<null> {
  const ids = input.documentIds;
  return then(store.moveDocuments(caller.id, input.organizationId, ids, folderOf(input.folderId), clock()), () => null);
}

export function setDocumentAccess({ store, clock }: Services, caller: Caller, input: DocumentsAccessData) {
  const ids = input.documentIds;
  const { accessType } = input;
  return then(store.setDocumentAccess(caller.id, input.organizationId, ids, accessType, clock()), () =>
    Object.fromEntries(ids.map((id) => [id, { success: true, accessType, message: 'Document access type updated.' }])),
  );
}

export function setDocumentsDisabled({ store, clock }: Services, caller: Caller, input: DocumentsDisableData) {
  const ids = input.documentIds;
  const { disabled } = input;
  return then(store.setDocumentsDisabled(caller.id, input.organizationId, ids, disabled, clock()), () =>
    Object.fromEntries(
      ids.map((id) => [
        id,
        {
          success: true,
          id: internalDocumentId(caller.id, input.organizationId, id),
          disabled,
          message: 'Document disabled state updated.',
        },
      ]),
    ),
  );
}

export interface DocumentPage {
  documents: Static<typeof Document>[];
  nextPageToken: string | null;
}

/** documents/get: by ids and/or folder ("root": in no folder), in id order, paged; unknown ids are left out. */
export function getDocuments({ store }: Services, caller: Caller, input: DocumentsGetData): Maybe<DocumentPage> {
  const ids = filterList(input.documentIds);
  const folder = input.folderId == null ? undefined : folderOf(input.folderId);
  const digest = filterDigest(['documents/get', input.organizationId, asSet(ids), folder ?? (folder === null ? ROOT : null)]);
  const read = (after: string | null, limit: number) =>
    store.getDocuments(caller.id, { organizationId: input.organizationId, documentIds: ids, folder, after, limit });
  return then(
    keyPaged(input, digest, read, (d) => d.documentId),
    ({ page, nextPageToken }) => ({
      documents: page.map(shownDocument),
      nextPageToken,
    }),
  );
}
