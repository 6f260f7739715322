// Documents as objects.
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import {
  DocumentsAccessBody,
  DocumentsAddBody,
  DocumentsDeleteBody,
  DocumentsDisableBody,
  DocumentsGetBody,
  DocumentsMoveBody,
  DocumentsUpdateBody,
} from '../schemas/documents.js';
import {
  AccessResult,
  DisableStateResult,
  DocumentListResult,
  DocumentsMovedResult,
  DocumentsResult,
  answers,
} from '../schemas/responses.js';
import {
  addDocuments,
  deleteDocuments,
  getDocuments,
  moveDocuments,
  setDocumentAccess,
  setDocumentsDisabled,
  updateDocuments,
} from '../services/documents.js';

/** Documents as objects. */
export const documents = [
  operation({
    paths: { v1: 'organizations/documents/add' },
    summary: 'Create documents, or rename them; optionally file them in a folder (SPEC 12)',
    tags: ['organizations'],
    body: DocumentsAddBody,
    response: answers(DocumentsResult, [404]),
    run: addDocuments,
    answer: 'Document(s) added successfully.',
  }),
  operation({
    paths: { v1: 'organizations/documents/get' },
    summary: "An organization's documents, by id and/or folder, in id order and paged (SPEC 12)",
    tags: ['organizations'],
    body: DocumentsGetBody,
    response: answers(DocumentListResult),
    run: getDocuments,
    answer: (got) => success('Document(s) retrieved successfully.', got.documents, pageTokenOf(got.nextPageToken)),
  }),
  operation({
    paths: { v1: 'organizations/documents/update' },
    summary: 'Rename documents that exist (SPEC 12)',
    tags: ['organizations'],
    body: DocumentsUpdateBody,
    response: answers(DocumentsResult),
    run: updateDocuments,
    answer: 'Document(s) updated successfully.',
  }),
  operation({
    paths: { v1: 'organizations/documents/delete' },
    summary: 'Delete documents with their threads, comments, notifications and memberships (SPEC 12)',
    tags: ['organizations'],
    body: DocumentsDeleteBody,
    response: answers(DocumentsResult),
    run: deleteDocuments,
    answer: 'Document(s) deleted successfully.',
  }),
  operation({
    paths: { v1: 'organizations/documents/move' },
    summary: 'Move documents into a folder that exists, or out of any with "root" (SPEC 12)',
    tags: ['organizations'],
    body: DocumentsMoveBody,
    response: answers(DocumentsMovedResult, [404]),
    run: moveDocuments,
    // The original service's page shows the envelope with no data member.
    answer: () => ({ result: { status: 'success' as const, message: 'Documents moved successfully.' } }),
  }),
  operation({
    paths: { v1: 'organizations/documents/access/update' },
    summary: "Set documents' access type (SPEC 12)",
    tags: ['organizations'],
    body: DocumentsAccessBody,
    response: answers(AccessResult),
    run: setDocumentAccess,
    answer: 'Updated access for documents successfully.',
  }),
  operation({
    paths: { v1: 'organizations/documents/access/disablestate/update' },
    summary: 'Disable documents, or enable them again; a missing document is created (SPEC 12)',
    tags: ['organizations'],
    body: DocumentsDisableBody,
    response: answers(DisableStateResult),
    run: setDocumentsDisabled,
    answer: 'Updated disable state for documents successfully.',
  }),
];
