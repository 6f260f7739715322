// Documents as objects.
import { success } from '../http/envelope.js';
import { PartialSuccess } from '../errors.js';
import { type Adapter, operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import {
  addDocuments,
  deleteDocuments,
  getDocuments,
  moveDocuments,
  setDocumentAccess,
  setDocumentsDisabled,
  updateDocuments,
  type DocumentOutcomes,
} from '../services/documents.js';

/**
 * /v2's answer to a batch where some documents failed: 500 INTERNAL with every entry in `details`, the
 * others' work committed (docs/api.md, "Version 2"); v1 answers the same entries as a success.
 */
function partialOnV2(message: string, failed: string): Adapter<never, DocumentOutcomes> {
  return {
    answer: (entries) => {
      if (Object.values(entries).some((e) => !e.success)) throw new PartialSuccess(failed, entries);
      return success(message, entries);
    },
  };
}

/** Documents as objects. */
export const documents = [
  operation(CONTRACT.documentsAdd, {
    run: addDocuments,
    answer: 'Document(s) added successfully.',
  }),
  operation(CONTRACT.documentsGet, {
    run: getDocuments,
    answer: (got) => success('Document(s) retrieved successfully.', got.documents, pageTokenOf(got.nextPageToken)),
  }),
  operation(CONTRACT.documentsUpdate, {
    run: updateDocuments,
    answer: 'Document(s) updated successfully.',
    adapters: {
      v2: partialOnV2('Document(s) updated successfully.', 'Error updating document(s).'),
    },
  }),
  operation(CONTRACT.documentsDelete, {
    run: deleteDocuments,
    answer: 'Document(s) deleted successfully.',
    adapters: {
      v2: partialOnV2('Document(s) deleted successfully.', 'Error deleting document(s).'),
    },
  }),
  operation(CONTRACT.documentsMove, {
    run: moveDocuments,
    // The original service's page shows the envelope with no data member.
    answer: () => ({ result: { status: 'success' as const, message: 'Documents moved successfully.' } }),
  }),
  operation(CONTRACT.documentsAccess, {
    run: setDocumentAccess,
    answer: 'Updated access for documents successfully.',
  }),
  operation(CONTRACT.documentsDisable, {
    run: setDocumentsDisabled,
    answer: 'Updated disable state for documents successfully.',
  }),
];
