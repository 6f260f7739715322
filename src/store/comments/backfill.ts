// Migration 9's data step: the stored answer, and what it keeps of its newest comments, of every thread
// written before threads kept them, rendered by the code that renders them now (threads.ts), in batches
// walked in key order.
import { all, same, type Work } from '../sql.js';
import { renderThreads } from './threads.js';
import { THREADS_SQL } from './threads-sql.js';

const BATCH = 500;

/** The next threads without a stored answer, in key order (exported for the query-plan test). */
export const UNRENDERED_THREADS = same(
  'unrenderedThreads',
  `SELECT tenant_id, organization_id, document_id, annotation_id FROM annotations
   WHERE answer_head = ''
     AND (tenant_id, organization_id, document_id, annotation_id) > (@tenantId, @organizationId, @documentId, @annotationId)
   ORDER BY tenant_id, organization_id, document_id, annotation_id LIMIT ${BATCH}`,
);

interface Key {
  tenant_id: string;
  organization_id: string;
  document_id: string;
  annotation_id: string;
}

export function* renderStoredThreads(): Work<void> {
  let after = { tenantId: '', organizationId: '', documentId: '', annotationId: '' };
  for (;;) {
    const keys = yield* all<Key>(UNRENDERED_THREADS, after);
    if (keys.length === 0) return;
    // Rendered a document at a time: consecutive keys of one document are one whole-thread read.
    for (let i = 0; i < keys.length; ) {
      const k = keys[i]!;
      let end = i + 1;
      while (
        end < keys.length &&
        keys[end]!.tenant_id === k.tenant_id &&
        keys[end]!.organization_id === k.organization_id &&
        keys[end]!.document_id === k.document_id
      )
        end++;
      const ids = keys.slice(i, end).map((x) => x.annotation_id);
      yield* renderThreads(k.tenant_id, k.organization_id, k.document_id, ids, THREADS_SQL.wholeAsOfMigration9);
      i = end;
    }
    const last = keys[keys.length - 1]!;
    after = {
      tenantId: last.tenant_id,
      organizationId: last.organization_id,
      documentId: last.document_id,
      annotationId: last.annotation_id,
    };
  }
}
