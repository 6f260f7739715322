// The request data of document migration (docs/api.md, "Document migration"): /v2's
// organizations/documents/migrate and its status.
import Type from 'typebox';
import { Id, RequestBody, type DataOf } from './common.js';

/** organizations/documents/migrate: the document and the new id its rows move to. */
export const DocumentMigrateBody = () =>
  RequestBody(
    Type.Object({
      organizationId: Id,
      documentId: Id,
      newDocumentId: { ...Id, description: 'The id the document moves to: one no document of the organization has' },
    }),
  );
export type DocumentMigrateData = DataOf<typeof DocumentMigrateBody>;

/** organizations/documents/migrate/status: the migrationId its start answered. */
export const DocumentMigrationStatusBody = () => RequestBody(Type.Object({ organizationId: Id, migrationId: Id }));
export type DocumentMigrationStatusData = DataOf<typeof DocumentMigrationStatusBody>;
