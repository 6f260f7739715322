// Documents as objects.
import { success } from '../http/envelope.js';
import { operation, pageTokenOf } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
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
  }),
  operation(CONTRACT.documentsDelete, {
    run: deleteDocuments,
    answer: 'Document(s) deleted successfully.',
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
