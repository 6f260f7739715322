// Store code of search/get (docs/api.md, "search/get"): the words as a list (each database's statement makes its
// query of them in the organization's scope: sql.ts), the rows as hits.
import type { FoundText, SearchKind, TextSearch } from '../../domain/search.js';
import { list, query, type Query } from '../sql.js';
import { SEARCH_SQL } from './sql.js';

const orNull = (v: unknown) => (v === null || v === undefined ? null : v);

export function search(tenantId: string, q: TextSearch): Query<FoundText[]> {
  const params = {
    tenantId,
    organizationId: q.organizationId,
    words: list(q.words),
    comments: q.kinds.includes('comment'),
    notifications: q.kinds.includes('notification'),
    documentIds: list(q.documentIds),
    folderIds: list(q.folderIds),
    userIds: list(q.userIds),
    createdAfter: q.createdAfter,
    createdBefore: q.createdBefore,
    recipient: q.recipient,
    offset: q.offset,
    limit: q.limit,
  };
  return query(SEARCH_SQL.search, params, true, (rows) =>
    (rows as unknown[][]).map((r) => ({
      kind: r[0] as SearchKind,
      documentId: orNull(r[1]) as string | null,
      annotationId: orNull(r[2]) as string | null,
      commentId: r[3] === null || r[3] === undefined ? null : Number(r[3]),
      notificationId: orNull(r[4]) as string | null,
      userId: r[5] as string,
      time: Number(r[6]),
      text: r[7] as string,
      score: Number(r[8]),
    })),
  );
}
