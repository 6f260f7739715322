// Document migration (/v2 only).
import { DocumentMigrateBody, DocumentMigrationStatusBody } from '../document-migrations.js';
import { DocumentMigrationStartedResult, DocumentMigrationStatusResult } from '../responses.js';
import { contract } from './contract.js';

export const documentMigrations = {
  documentsMigrate: contract({
    paths: { v2: 'organizations/documents/migrate' },
    summary: "Move a document's threads, comments, notifications, memberships, settings and live state to a new id, as a job",
    description:
      'Answers at once with a `migrationId`; a worker of the service moves the rows in short batches (other writes never ' +
      'wait long behind it), and `migrate/status` says how far it got. While it runs, both ids refuse writes as a disabled ' +
      'document does; reads find each row under the id it is at. At its end the old id is gone and the new one takes ' +
      "the document's name, folder, access and disabled state. 404 when the document does not exist; 409 when the new " +
      'id exists or the document is being migrated already.',
    tags: ['organizations'],
    body: DocumentMigrateBody,
    example: { organizationId: 'acme', documentId: 'wiki', newDocumentId: 'wiki-2026' },
    result: DocumentMigrationStartedResult,
    also: [404, 409],
  }),
  documentsMigrateStatus: contract({
    paths: { v2: 'organizations/documents/migrate/status' },
    summary: 'Where a document migration is: pending, in_progress, completed or failed',
    tags: ['organizations'],
    body: DocumentMigrationStatusBody,
    example: { organizationId: 'acme', migrationId: '01a2223a-7c41-7d0e-9a51-3f5e2b6c1d20' },
    result: DocumentMigrationStatusResult,
    also: [404],
  }),
};
