// The read of /v2's commentannotations/get (docs/api.md, "Version 2"): an organization's threads, or a document's,
// by lastUpdated (newest or oldest first), with the v2 filters. SQLite and PostgreSQL side by side. Four shapes:
// one document or the organization (each walks its own index: annotations_by_document_update or
// annotations_by_update, migration 30), each way round; every other filter is a clause that a null
// parameter passes, checked on the rows of the walk, so a page costs the rows it walks, never a sort.
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { POSTGRES, SQLITE, type Syntax } from '../dialect/syntax.js';
import { madeOnDemand, type Statement } from '../sql.js';

/** A row of the read: the thread's place in the order, its stored answer, the versions read under. */
const SEARCH_SELECT = {
  annotationId: 'a.annotation_id',
  documentId: 'a.document_id',
  lastUpdated: 'a.last_updated',
  head: 'a.answer_head',
  comments: 'a.answer_comments',
  profileVersion: PROFILE_VERSION,
  credentialsVersion: CREDENTIALS_VERSION,
} as const;
/** Where each field sits in a row of the read. */
export const S = positions(SEARCH_SELECT);

/** The shape of a read: one document or the whole organization, and which way round. */
export interface SearchShape {
  oneDocument: boolean;
  ascending: boolean;
}

/** Every shape (the query-plan test checks each). */
export const SEARCH_SHAPES: readonly SearchShape[] = [false, true].flatMap((oneDocument) =>
  [false, true].map((ascending) => ({ oneDocument, ascending })),
);

const SAME_THREAD = `c.tenant_id = a.tenant_id AND c.organization_id = a.organization_id AND c.document_id = a.document_id
  AND c.annotation_id = a.annotation_id`;
const THE_DOCUMENT = `d.tenant_id = a.tenant_id AND d.organization_id = a.organization_id AND d.document_id = a.document_id`;

/** A thread that tags one of @mentioned in one of its comments (their taggedUserContacts, JSON text). */
const MENTIONS = {
  sqlite: `EXISTS (SELECT 1 FROM comments c, json_each(c.tagged_user_contacts) t WHERE ${SAME_THREAD}
    AND c.tagged_user_contacts IS NOT NULL AND json_extract(t.value, '$.userId') IN (SELECT value FROM json_each(@mentioned)))`,
  postgres: `EXISTS (SELECT 1 FROM comments c CROSS JOIN LATERAL jsonb_array_elements(c.tagged_user_contacts::jsonb) t
    WHERE ${SAME_THREAD} AND c.tagged_user_contacts IS NOT NULL AND t.value->>'userId' = ANY(@mentioned::text[]))`,
};

function searchText(s: Syntax, shape: SearchShape, mentions: string): string {
  const way = shape.ascending ? 'ASC' : 'DESC';
  const bigint = s.cast('bigint');
  const flag = (param: string) => `@${param}${s.cast('boolean')}`;
  const where = [
    'a.tenant_id = @tenantId AND a.organization_id = @organizationId',
    ...(shape.oneDocument ? ['a.document_id = @documentId'] : [s.inList('a.document_id', 'documentIds')]),
    s.inList('a.annotation_id', 'annotationIds'),
    s.inList('a.location_id', 'locationIds'),
    s.inList('a.first_user_id', 'userIds'),
    s.inList('a.status_id', 'statusIds'),
    s.whenGiven('a.resolved_by', 'resolvedBy'),
    s.whenGiven('a.agent_id', 'agentId'),
    s.whenGiven('a.execution_id', 'executionId'),
    s.whenGiven('a.agent_source', 'agentSource'),
    s.whenGiven('a.agent_type', 'agentType'),
    `(NOT ${flag('agentOnly')} OR a.agent_id IS NOT NULL)`,
    `(NOT ${flag('suggestionsOnly')} OR a.kind = 'suggestion')`,
    `(@updatedAfter${bigint} IS NULL OR a.last_updated >= @updatedAfter)`,
    `(@updatedBefore${bigint} IS NULL OR a.last_updated <= @updatedBefore)`,
    `(@createdAfter${bigint} IS NULL OR a.created_at >= @createdAfter)`,
    `(@createdBefore${bigint} IS NULL OR a.created_at <= @createdBefore)`,
    // A folder: its documents; "root": the documents in none.
    `(@folderId${s.cast('text')} IS NULL OR EXISTS (SELECT 1 FROM documents d WHERE ${THE_DOCUMENT} AND d.folder_id = @folderId))`,
    `(NOT ${flag('rootOnly')} OR EXISTS (SELECT 1 FROM documents d WHERE ${THE_DOCUMENT} AND d.folder_id IS NULL))`,
    `(@mentioned${s.cast('text[]')} IS NULL OR ${mentions})`,
    `(a.last_updated, a.document_id, a.annotation_id) ${shape.ascending ? '>' : '<'}
      (@afterUpdated${bigint}, @afterDocument${s.cast('text')}, @afterId${s.cast('text')})`,
  ];
  return `SELECT ${columnsOf(SEARCH_SELECT)} FROM annotations a WHERE ${where.join('\n    AND ')}
  ORDER BY a.last_updated ${way}, a.document_id ${way}, a.annotation_id ${way} LIMIT @limit`;
}

const shapeKey = (shape: SearchShape) =>
  `${shape.oneDocument ? 'Document' : 'Organization'}${shape.ascending ? 'Ascending' : ''}`;

/** The read for a shape. */
export const threadSearch = madeOnDemand(shapeKey, (shape): Statement => {
  const name = `threadSearch${shapeKey(shape)}`;
  return {
    sqlite: { name, text: searchText(SQLITE, shape, MENTIONS.sqlite) },
    postgres: { name, text: searchText(POSTGRES, shape, MENTIONS.postgres) },
  };
});
