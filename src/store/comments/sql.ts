// The statements of comment annotations and comments, SQLite and PostgreSQL side by side, and the
// select list of the comment read.
import { CREDENTIALS_VERSION, columnsOf, PROFILE_VERSION, positions } from '../select.js';
import { same, sql, written } from '../sql.js';

/** A comment's columns in a read (as `c`); the thread read (threads-sql.ts) selects them too. */
export const COMMENT_COLUMNS = {
  commentId: 'c.comment_id',
  html: 'c.comment_html',
  text: 'c.comment_text',
  fromUserId: 'c.from_user_id',
  fromName: 'c.from_name',
  fromEmail: 'c.from_email',
  status: 'c.status',
  type: 'c.type',
  createdAt: 'c.created_at',
  lastUpdated: 'c.last_updated',
  seq: 'c.seq',
  taggedUserContacts: 'c.tagged_user_contacts',
  // Not `context`: the thread read selects the thread's columns beside these (threads-sql.ts).
  commentContext: 'c.context',
  attachments: 'c.attachments',
  agent: 'c.agent',
} as const;

const COMMENT_SELECT = { ...COMMENT_COLUMNS, profileVersion: PROFILE_VERSION, credentialsVersion: CREDENTIALS_VERSION } as const;
/** Where each field sits in a row of the comment read. */
export const C = positions(COMMENT_SELECT);

/**
 * A comment read (as `c`), with the organization's profile version: a thread is one query. It walks
 * the thread's rows in key order (comment_id), contiguous in the table, and the caller puts them in
 * creation order (seq): walking comments_in_order instead cost a descent into the table per comment
 * (55 -> 40 us for a thread of 10 in a loop on the large dataset).
 */
const READ = `SELECT ${columnsOf(COMMENT_SELECT)} FROM comments c
  WHERE c.tenant_id = @tenantId AND c.organization_id = @organizationId AND c.document_id = @documentId
    AND c.annotation_id = @annotationId`;

/** A thread's own columns (as `a`): what its stored head is rendered from (answers/annotations.ts). */
export const HEAD_COLUMNS = {
  annotationId: 'a.annotation_id',
  location: 'a.location',
  locationId: 'a.location_id',
  context: 'a.context',
  threadStatus: 'a.status',
  threadCreatedAt: 'a.created_at',
  threadLastUpdated: 'a.last_updated',
  color: 'a.color',
  assignedTo: 'a.assigned_to',
  priority: 'a.priority',
  targetElement: 'a.target_element',
  kind: 'a.kind',
  suggestion: 'a.suggestion',
  commentType: 'a.comment_type',
  visibility: 'a.visibility',
  resolvedBy: 'a.resolved_by',
  statusUpdatedBy: 'a.status_updated_by',
} as const;

/** A locked thread: its head, and what it keeps of its newest comments (latest.ts). */
const LOCKED_SELECT = {
  ...HEAD_COLUMNS,
  lastAt: 'a.last_comment_at',
  lastBy: 'a.last_comment_by',
  otherAt: 'a.last_other_at',
  // docs/api.md "Disabled organizations and documents": the thread's organization or document disabled refuses the
  // write; read with the lock, so the check costs no statement.
  organizationDisabled: `(SELECT o.disabled FROM organizations o WHERE o.tenant_id = a.tenant_id
    AND o.organization_id = a.organization_id)`,
  documentDisabled: `(SELECT d.disabled FROM documents d WHERE d.tenant_id = a.tenant_id
    AND d.organization_id = a.organization_id AND d.document_id = a.document_id)`,
} as const;
/** Where each field sits in a locked thread's row. */
export const L = positions(LOCKED_SELECT);

/** One thread, by its key. */
export const THREAD = `tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
  AND annotation_id = @annotationId`;

export const COMMENTS_SQL = {
  insertAnnotation: same(
    'insertAnnotation',
    `INSERT INTO annotations (tenant_id, organization_id, document_id, annotation_id, location, location_id, context, status,
       created_at, last_updated, status_id, first_user_id, color, assigned_to, priority, target_element, answer_head,
       answer_comments, last_comment_at, last_comment_by, last_other_at, kind, suggestion, comment_type, visibility,
       agent_id, agent_source, execution_id, agent_type, agent_url)
     VALUES (@tenantId, @organizationId, @documentId, @annotationId, @location, @locationId, @context, @status, @createdAt,
       @lastUpdated, @statusId, @firstUserId, @color, @assignedTo, @priority, @targetElement, @head, @comments,
       @lastAt, @lastBy, @otherAt, @kind, @suggestion, @commentType, @visibility, @agentId, @agentSource, @executionId,
       @agentType, @agentUrl)
     ON CONFLICT DO NOTHING`,
  ),
  // Reads the thread and, on PostgreSQL, locks it, so concurrent writes to one thread's comments (ids,
  // stored answer) go one after the other (SQLite's write transaction already excludes other writers).
  lockAnnotation: written(
    'lockAnnotation',
    (s) => `SELECT ${columnsOf(LOCKED_SELECT)} FROM annotations a WHERE ${THREAD}${s.lock('UPDATE')}`,
  ),
  // last_created: the createdAt of the newest comment (by seq), which a new one must not precede.
  threadTail: same(
    'threadTail',
    `SELECT coalesce(max(comment_id), 0) AS max_id, coalesce(max(seq), 0) AS max_seq,
       coalesce((SELECT created_at FROM comments WHERE ${THREAD} ORDER BY seq DESC LIMIT 1), 0) AS last_created
     FROM comments WHERE ${THREAD}`,
  ),
  takenCommentIds: written(
    'takenCommentIds',
    (s) => `SELECT comment_id FROM comments WHERE ${THREAD} AND ${s.isIn('comment_id', 'commentIds', 'int')}`,
  ),
  insertComments: sql('insertComments', {
    sqlite: `INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
               comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated, tagged_user_contacts,
               context, attachments, agent)
             VALUES (@tenantId, @organizationId, @documentId, @annotationId, @commentId, @seq, @html, @text, @fromUserId,
               @fromName, @fromEmail, 'added', 'text', @createdAt, @lastUpdated, @tags, @context, @attachments, @agent)`,
    postgres: `INSERT INTO comments (tenant_id, organization_id, document_id, annotation_id, comment_id, seq, comment_html,
                 comment_text, from_user_id, from_name, from_email, status, type, created_at, last_updated, tagged_user_contacts,
                 context, attachments, agent)
               SELECT @tenantId, @organizationId, @documentId, @annotationId, c.comment_id, c.seq, c.html, c.text, c.user_id,
                 c.name, c.email, 'added', 'text', c.created_at, c.last_updated, c.tags, c.context, c.attachments, c.agent
               FROM unnest(@commentId::int[], @seq::int[], @html::text[], @text::text[], @fromUserId::text[],
                 @fromName::text[], @fromEmail::text[], @createdAt::bigint[], @lastUpdated::bigint[], @tags::text[],
                 @context::text[], @attachments::text[], @agent::text[])
                 AS c(comment_id, seq, html, text, user_id, name, email, created_at, last_updated, tags, context, attachments,
                   agent)`,
  }),
  // After comments/add: the thread's lastUpdated follows its newest change, a thread that had no comment
  // gets its first author, the new comments' answers are appended to its stored ones, and its newest
  // comments are as latest.ts folded them.
  afterAdd: written(
    'threadAfterAdd',
    (s) => `UPDATE annotations SET last_updated = @lastUpdated, first_user_id = coalesce(first_user_id, @firstUserId),
      answer_head = @head,
      answer_comments = CASE WHEN answer_comments = '' THEN @comments ELSE answer_comments || ',' || @comments${s.cast('text')} END,
      last_comment_at = @lastAt, last_comment_by = @lastBy, last_other_at = @otherAt
      WHERE ${THREAD}`,
  ),
  comments: written(
    'comments',
    (s) => `${READ}
      AND ${s.inList('c.from_user_id', 'userIds')} AND ${s.inList('c.comment_id', 'commentIds', 'int')}
      ORDER BY c.comment_id`,
  ),
};
