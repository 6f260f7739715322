// Document migration (docs/api.md, "Document migration"): the start, which checks and records the job in one
// write and answers its id at once, and the status read. The rows move in a worker (src/jobs/).
import { newMigrationId } from '../domain/ids.js';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { DocumentMigrateData, DocumentMigrationStatusData } from '../schemas/document-migrations.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';

/** organizations/documents/migrate: the job, recorded pending, and its id. */
export function startDocumentMigration(
  { store, clock }: Services,
  caller: Caller,
  input: DocumentMigrateData,
): Maybe<{ migrationId: string }> {
  const { organizationId, documentId, newDocumentId } = input;
  if (documentId === newDocumentId) throw invalid(`${spell(['newDocumentId'])} must differ from ${spell(['documentId'])}.`);
  const migrationId = newMigrationId();
  return then(
    store.startDocumentMigration({ tenantId: caller.id, migrationId, organizationId, documentId, newDocumentId }, clock()),
    () => ({ migrationId }),
  );
}

/** organizations/documents/migrate/status: another tenant's job, or one of another organization, does not exist. */
export function documentMigrationStatus({ store }: Services, caller: Caller, input: DocumentMigrationStatusData) {
  return then(store.documentMigration(caller.id, input.organizationId, input.migrationId), (job) => {
    if (!job) throw new ApiError('NOT_FOUND', `Migration ${input.migrationId} does not exist.`);
    return {
      migrationId: job.migrationId,
      status: job.status,
      documentId: job.documentId,
      newDocumentId: job.newDocumentId,
      movedRows: job.moved,
      ...(job.error !== null ? { error: job.error } : {}),
      createdAt: job.createdAt,
      lastUpdated: job.updatedAt,
    };
  });
}
