// Document migration (docs/api.md, "Document migration"): the start, which checks and records the job in one
// write and answers its id at once, and the status read. The rows move in a worker (src/jobs/).
import { newMigrationId } from '../domain/ids.js';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { DocumentMigrateData, DocumentMigrationStatusData } from '../schemas/document-migrations.js';
import type { Caller, Services } from './context.js';
import { spell } from './member-path.js';

/** MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT unless set: the most migrations a tenant may have pending or in progress. */
export const DEFAULT_MAX_OPEN_MIGRATIONS = 100;

/**
 * organizations/documents/migrate: the job, recorded pending, and its id; 429 RESOURCE_EXHAUSTED while the tenant
 * has MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT open already (each open job holds two document ids disabled and a
 * worker's turn, so a tenant cannot queue an unbounded backlog in front of the others).
 */
export function startDocumentMigration(
  { store, clock, maxOpenMigrationsPerTenant }: Services,
  caller: Caller,
  input: DocumentMigrateData,
): Maybe<{ migrationId: string }> {
  const { organizationId, documentId, newDocumentId } = input;
  if (documentId === newDocumentId) throw invalid(`${spell(['newDocumentId'])} must differ from ${spell(['documentId'])}.`);
  const migrationId = newMigrationId();
  const most = maxOpenMigrationsPerTenant ?? DEFAULT_MAX_OPEN_MIGRATIONS;
  const start = { tenantId: caller.id, migrationId, organizationId, documentId, newDocumentId };
  return then(store.startDocumentMigration(start, most, clock()), (started) => {
    if (started === 'too_many')
      throw new ApiError(
        'RESOURCE_EXHAUSTED',
        `This API key has ${most} document migrations pending or in progress (MARGINALIA_MAX_OPEN_MIGRATIONS_PER_TENANT): ` +
          'nothing was started. Start this one once one of them has finished (migrate/status).',
      );
    return { migrationId };
  });
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
