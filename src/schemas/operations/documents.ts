// Documents as objects.
import {
  DocumentsAccessBody,
  DocumentsAddBody,
  DocumentsDeleteBody,
  DocumentsDisableBody,
  DocumentsGetBody,
  DocumentsMoveBody,
  DocumentsUpdateBody,
} from '../documents.js';
import { AccessResult, DisableStateResult, DocumentListResult, DocumentsMovedResult, DocumentsResult } from '../responses.js';
import { contract } from './contract.js';

export const documents = {
  documentsAdd: contract({
    paths: { v1: 'organizations/documents/add', v2: 'organizations/documents/add' },
    summary: 'Create documents, or rename them; optionally file them in a folder',
    tags: ['organizations'],
    body: DocumentsAddBody,
    example: {
      organizationId: 'acme',
      folderId: 'specs',
      documents: [{ documentId: 'd1', documentName: 'Plan' }, { documentId: 'd2' }],
    },
    result: DocumentsResult,
    also: [404],
  }),
  documentsGet: contract({
    paths: { v1: 'organizations/documents/get', v2: 'organizations/documents/get' },
    summary: "An organization's documents, by id and/or folder, in id order and paged",
    tags: ['organizations'],
    body: DocumentsGetBody,
    example: { organizationId: 'acme', folderId: 'specs' },
    result: DocumentListResult,
  }),
  documentsUpdate: contract({
    paths: { v1: 'organizations/documents/update', v2: 'organizations/documents/update' },
    summary: 'Rename documents that exist',
    tags: ['organizations'],
    body: DocumentsUpdateBody,
    example: {
      organizationId: 'acme',
      documents: [
        { documentId: 'd1', documentName: 'Plan B' },
        { documentId: 'nope', documentName: 'x' },
      ],
    },
    result: DocumentsResult,
    v2: { partial: 'some documents do not exist: the others were renamed, every entry in `details`' },
  }),
  documentsDelete: contract({
    paths: { v1: 'organizations/documents/delete', v2: 'organizations/documents/delete' },
    summary: 'Delete documents with their threads, comments, notifications and memberships',
    tags: ['organizations'],
    body: DocumentsDeleteBody,
    example: { organizationId: 'acme', documentIds: ['d2', 'nope'] },
    result: DocumentsResult,
    v2: { partial: 'some documents do not exist: the others were deleted, every entry in `details`' },
  }),
  documentsMove: contract({
    paths: { v1: 'organizations/documents/move', v2: 'organizations/documents/move' },
    summary: 'Move documents into a folder that exists, or out of any with "root"',
    tags: ['organizations'],
    body: DocumentsMoveBody,
    example: { organizationId: 'acme', documentIds: ['d1'], folderId: 'root' },
    result: DocumentsMovedResult,
    also: [404],
  }),
  documentsAccess: contract({
    paths: { v1: 'organizations/documents/access/update', v2: 'organizations/documents/access/update' },
    summary: "Set documents' access type",
    tags: ['organizations'],
    body: DocumentsAccessBody,
    example: { organizationId: 'acme', documentIds: ['d1'], accessType: 'restricted' },
    result: AccessResult,
  }),
  documentsDisable: contract({
    paths: { v1: 'organizations/documents/access/disablestate/update', v2: 'organizations/documents/access/disablestate/update' },
    summary: 'Disable documents, or enable them again; a missing document is created',
    tags: ['organizations'],
    body: DocumentsDisableBody,
    example: { organizationId: 'acme', documentIds: ['d1'], disabled: true },
    result: DisableStateResult,
  }),
};
