// Store code of /v2's commentannotations/get (docs/api.md, "Version 2"): an organization's threads, or a
// document's, in lastUpdated order, with the v2 filters (search-sql.ts).
import { versionsOf } from '../select.js';
import { list, query, type Query } from '../sql.js';
import type { FoundThread, ThreadSearch } from '../../domain/threads.js';
import { S, threadSearch } from './search-sql.js';

/** Before every thread in each order: "from the first". */
const FIRST_NEWEST = { lastUpdated: Number.MAX_SAFE_INTEGER, documentId: '', annotationId: '' };
const FIRST_OLDEST = { lastUpdated: -1, documentId: '', annotationId: '' };

export function search(tenantId: string, q: ThreadSearch): Query<FoundThread[]> {
  const after = q.after ?? (q.ascending ? FIRST_OLDEST : FIRST_NEWEST);
  const params = {
    tenantId,
    organizationId: q.organizationId,
    documentId: q.documentId,
    documentIds: list(q.documentIds),
    annotationIds: list(q.annotationIds),
    locationIds: list(q.locationIds),
    userIds: list(q.userIds),
    statusIds: list(q.statusIds),
    mentioned: list(q.mentionedUserIds),
    resolvedBy: q.resolvedBy,
    agentId: q.agentId,
    executionId: q.executionId,
    agentSource: q.agentSource,
    agentType: q.agentType,
    agentOnly: q.agentOnly,
    suggestionsOnly: q.suggestionsOnly,
    updatedAfter: q.updatedAfter,
    updatedBefore: q.updatedBefore,
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    folderId: q.folder ?? null,
    rootOnly: q.folder === null,
    afterUpdated: after.lastUpdated,
    afterDocument: after.documentId,
    afterId: after.annotationId,
    limit: q.limit,
  };
  const statement = threadSearch({ oneDocument: q.documentId !== null, ascending: q.ascending });
  return query(statement, params, true, (rows) =>
    (rows as unknown[][]).map((r) => ({
      annotationId: r[S.annotationId] as string,
      documentId: r[S.documentId] as string,
      lastUpdated: Number(r[S.lastUpdated]),
      head: r[S.head] as string,
      comments: r[S.comments] as string,
      ...versionsOf(r, S),
    })),
  );
}
