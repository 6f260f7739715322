// Document migration (/v2 only).
import { operation } from './operation.js';
import { CONTRACT } from '../schemas/operations/index.js';
import { documentMigrationStatus, startDocumentMigration } from '../services/document-migrations.js';

/** Document migration: the start (a job) and its status. */
export const documentMigrations = [
  operation(CONTRACT.documentsMigrate, { run: startDocumentMigration, answer: 'Document migration started successfully.' }),
  operation(CONTRACT.documentsMigrateStatus, {
    run: documentMigrationStatus,
    answer: 'Migration status retrieved successfully.',
  }),
];
