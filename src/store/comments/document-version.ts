// A document's thread version (migration 11): moved by every write of its threads or comments, and
// read back for a page of its threads held in memory (services/thread-pages.ts).
import { type Query, query, run, type Work } from '../sql.js';
import type { DocumentVersions } from '../store.js';
import type { Thread } from './comments.js';
import { THREADS_SQL as SQL } from './threads-sql.js';

/** After any change to a document's threads or comments: its version moves (migration 11). */
export function* touchDocument(document: Pick<Thread, 'tenantId' | 'organizationId' | 'documentId'>): Work<void> {
  const { tenantId, organizationId, documentId } = document;
  yield* run(SQL.touchDocument, { tenantId, organizationId, documentId });
}

/** The versions a page of the document's threads is read under, now: one row, run directly. */
export function documentVersions(tenantId: string, organizationId: string, documentId: string): Query<DocumentVersions> {
  return query(SQL.documentVersions, { tenantId, organizationId, documentId }, true, (rows) => {
    const [documentVersion, profileVersion, credentialsVersion] = rows[0] as unknown[];
    return {
      documentVersion: Number(documentVersion),
      profileVersion: Number(profileVersion ?? 0),
      credentialsVersion: Number(credentialsVersion),
    };
  });
}
