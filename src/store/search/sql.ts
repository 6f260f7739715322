// The read of search/get (docs/api.md, "search/get"), SQLite and PostgreSQL side by side: the comments and the
// notifications whose indexed text (migrations 44 and 47) has every word, in the caller's organization, with the filters
// (each a clause a null parameter passes), best first. SQLite's FTS5 finds the rowids, which its keys tables turn
// into rows; PostgreSQL's GIN index on search_words finds the rows. Both look the words up in the organization's
// scope (migration 48), so a search reads the organization's entries only. Scores: FTS5's bm25 (negated: higher is better)
// and ts_rank; each database ranks by its own, comments and notifications on one scale. On PostgreSQL the ids are
// COLLATE "C" as their columns, so that the two kinds' rows compare in one ORDER BY.
import { POSTGRES, SQLITE, type Syntax } from '../dialect/syntax.js';
import type { Statement } from '../sql.js';

/** The select list of each kind, in this order (search.ts reads the rows as arrays). */
export const HIT = ['kind', 'document_id', 'annotation_id', 'comment_id', 'notification_id', 'user_id', 'time', 'text', 'score'];

/** A folder's documents, the folders below it included (the subtree, as folders/delete and access take it). */
const FOLDER_TREE = (s: Syntax) => `folder_tree(folder_id) AS (
    SELECT value${s.bytewise} FROM ${s.listRows('folderIds', 'given')}
    UNION
    SELECT f.folder_id FROM folders f JOIN folder_tree t
      ON f.tenant_id = @tenantId AND f.organization_id = @organizationId AND f.parent_id = t.folder_id
  )`;

/** The filters both kinds share, on a kind's document, author and time columns. */
function filters(s: Syntax, document: string, author: string, time: string): string[] {
  const bigint = s.cast('bigint');
  return [
    s.inList(document, 'documentIds'),
    `(@folderIds${s.cast('text[]')} IS NULL OR ${document} IN (SELECT d.document_id FROM documents d
       WHERE d.tenant_id = @tenantId AND d.organization_id = @organizationId
         AND d.folder_id IN (SELECT folder_id FROM folder_tree)))`,
    s.inList(author, 'userIds'),
    `(@createdAfter${bigint} IS NULL OR ${time} >= @createdAfter)`,
    `(@createdBefore${bigint} IS NULL OR ${time} <= @createdBefore)`,
  ];
}

/** An end user's search sees only the notifications in their inbox. */
const IN_INBOX = (s: Syntax) => `(@recipient${s.cast('text')} IS NULL OR EXISTS (SELECT 1 FROM inbox i
    WHERE i.tenant_id = n.tenant_id AND i.organization_id = n.organization_id AND i.notification_id = n.notification_id
      AND i.user_id = @recipient))`;

/**
 * SQLite: the organization's range of FTS rowids (migration 44), so that FTS5 reads each word's entries of this
 * organization only. No scope yet: NULL bounds, no rows.
 */
const SCOPE_RANGE = (fts: string) => `${fts}.rowid BETWEEN
      (SELECT id * 4294967296 FROM search_scopes WHERE tenant_id = @tenantId AND organization_id = @organizationId)
      AND (SELECT id * 4294967296 + 4294967295 FROM search_scopes WHERE tenant_id = @tenantId AND organization_id = @organizationId)`;

/**
 * SQLite: the query's words as FTS5 terms in the organization's scope, each a prefix: `17_reu* 17_tomorrow*`
 * (domain/search.ts, indexTerms). The words are letters, digits and marks, so each is a bareword. No scope yet (the
 * organization has no rows): `0_`, a term no row has.
 */
const SCOPED_MATCH = `(SELECT coalesce(group_concat(s.id || '_' || w.value || '*', ' '), '0_')
      FROM search_scopes s, json_each(@words) w WHERE s.tenant_id = @tenantId AND s.organization_id = @organizationId)`;

/**
 * PostgreSQL: the query's words as to_tsquery's text, each a quoted prefix, all of them required (`'reu':* &
 * 'tomorrow':*`); the words hold no quote or backslash, each is escaped still, so no operator can reach the query.
 * scoped_search_query then puts the organization's scope in front of each lexeme.
 */
const POSTGRES_MATCH = String.raw`(SELECT string_agg('''' || replace(replace(w, '\', '\\'), '''', '''''') || ''':*', ' & ')
      FROM unnest(@words::text[]) AS w)`;

/** A notification's text as indexed (migration 47): its headline, a line break, its body; no break without a headline. */
const NOTIFICATION_TEXT = (newline: string) =>
  `CASE WHEN n.headline_text = '' THEN n.body_message ELSE n.headline_text || ${newline} || n.body_message END`;

const ORDER = 'ORDER BY score DESC, time DESC, kind, document_id, annotation_id, comment_id, notification_id';

const sqliteText = (): string => {
  const s = SQLITE;
  const comments = `SELECT 'comment' AS kind, c.document_id, c.annotation_id, c.comment_id, NULL AS notification_id,
      c.from_user_id AS user_id, c.created_at AS time, c.comment_text AS text, -bm25(comment_search) AS score
    FROM comment_search JOIN comment_search_keys k ON k.id = comment_search.rowid
      JOIN comments c ON c.tenant_id = k.tenant_id AND c.organization_id = k.organization_id AND c.document_id = k.document_id
        AND c.annotation_id = k.annotation_id AND c.comment_id = k.comment_id
    WHERE comment_search MATCH ${SCOPED_MATCH} AND @comments = 1 AND ${SCOPE_RANGE('comment_search')}
      AND k.tenant_id = @tenantId AND k.organization_id = @organizationId
      AND ${filters(s, 'c.document_id', 'c.from_user_id', 'c.created_at').join('\n      AND ')}`;
  const notifications = `SELECT 'notification' AS kind, n.document_id, NULL, NULL, n.notification_id,
      n.action_user_id, n.timestamp, ${NOTIFICATION_TEXT('char(10)')}, -bm25(notification_search)
    FROM notification_search JOIN notification_search_keys k ON k.id = notification_search.rowid
      JOIN notifications n ON n.tenant_id = k.tenant_id AND n.organization_id = k.organization_id
        AND n.notification_id = k.notification_id
    WHERE notification_search MATCH ${SCOPED_MATCH} AND @notifications = 1 AND ${SCOPE_RANGE('notification_search')}
      AND k.tenant_id = @tenantId AND k.organization_id = @organizationId
      AND ${[...filters(s, 'n.document_id', 'n.action_user_id', 'n.timestamp'), IN_INBOX(s)].join('\n      AND ')}`;
  return `WITH RECURSIVE ${FOLDER_TREE(s)}
  SELECT * FROM (${comments}
    UNION ALL
    ${notifications}) hits
  ${ORDER} LIMIT @limit OFFSET @offset`;
};

const postgresText = (): string => {
  const s = POSTGRES;
  const comments = `SELECT 'comment' AS kind, c.document_id, c.annotation_id, c.comment_id, NULL::text COLLATE "C" AS notification_id,
      c.from_user_id AS user_id, c.created_at AS time, c.comment_text AS text, ts_rank(c.search_words, q.q) AS score
    FROM comments c, q
    WHERE c.search_words @@ q.q AND @comments::boolean
      AND c.tenant_id = @tenantId AND c.organization_id = @organizationId
      AND ${filters(s, 'c.document_id', 'c.from_user_id', 'c.created_at').join('\n      AND ')}`;
  const notifications = `SELECT 'notification', n.document_id, NULL::text COLLATE "C", NULL::integer, n.notification_id,
      n.action_user_id, n.timestamp, ${NOTIFICATION_TEXT('chr(10)')}, ts_rank(n.search_words, q.q)
    FROM notifications n, q
    WHERE n.search_words @@ q.q AND @notifications::boolean
      AND n.tenant_id = @tenantId AND n.organization_id = @organizationId
      AND ${[...filters(s, 'n.document_id', 'n.action_user_id', 'n.timestamp'), IN_INBOX(s)].join('\n      AND ')}`;
  return `WITH RECURSIVE ${FOLDER_TREE(s)},
  q AS (SELECT scoped_search_query(search_scope(@tenantId, @organizationId), to_tsquery('simple', ${POSTGRES_MATCH})) AS q)
  SELECT * FROM (${comments}
    UNION ALL
    ${notifications}) hits
  ${ORDER} LIMIT @limit OFFSET @offset`;
};

export const SEARCH_SQL: { search: Statement } = {
  search: {
    sqlite: { name: 'searchText', text: sqliteText() },
    postgres: { name: 'searchText', text: postgresText() },
  },
};
