// The statements of comments' reactions (migration 45), SQLite and PostgreSQL side by side. Row locks are
// PostgreSQL's; SQLite's write transaction already excludes other writers.
import { THREAD } from '../comments/sql.js';
import { same, sql, written } from '../sql.js';

const COMMENT = `${THREAD} AND comment_id = @commentId`;
const COLUMNS = 'document_id, annotation_id, comment_id, icon, user_id, created_at';

export const REACTIONS_SQL = {
  /**
   * The comment's row, locked until the write commits (NO KEY UPDATE): a comment's reactions change one write at a
   * time, so its bounds hold, and a delete of the comment (whose trigger deletes its reactions) waits for the write,
   * or the write finds the comment gone.
   */
  lockComment: written('lockReactedComment', (s) => `SELECT 1 AS found FROM comments WHERE ${COMMENT}${s.lock('NO KEY UPDATE')}`),
  add: same(
    'addReaction',
    `INSERT INTO comment_reactions (tenant_id, organization_id, document_id, annotation_id, comment_id, icon, user_id, created_at)
     VALUES (@tenantId, @organizationId, @documentId, @annotationId, @commentId, @icon, @userId, @now)
     ON CONFLICT DO NOTHING`,
  ),
  /** The comment's reactions counted: all, distinct icons, and those with @icon. */
  counts: same(
    'countReactions',
    `SELECT count(*) AS n, count(DISTINCT icon) AS icons, coalesce(sum(CASE WHEN icon = @icon THEN 1 ELSE 0 END), 0) AS same_icon
     FROM comment_reactions WHERE ${COMMENT}`,
  ),
  remove: same('removeReaction', `DELETE FROM comment_reactions WHERE ${COMMENT} AND icon = @icon AND user_id = @userId`),
  /** The reacting user has a row in the organization (migration 27's index, which users/data/delete visits by). */
  userOrganization: sql('reactionUserOrganization', {
    sqlite: 'INSERT OR IGNORE INTO user_organizations VALUES (@tenantId, @userId, @organizationId, 0)',
    postgres: 'INSERT INTO user_organizations VALUES (@tenantId, @userId, @organizationId, false) ON CONFLICT DO NOTHING',
  }),
  /** The reactions to the listed threads of a document (a page of a read). */
  ofThreads: written(
    'reactionsOfThreads',
    (s) => `SELECT ${COLUMNS} FROM comment_reactions
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId
       AND ${s.isIn('annotation_id', 'annotationIds')}`,
  ),
  /** users/data/get: the user's next reactions after the cursor, in key order (comment_reactions_by_user). */
  ofUser: written(
    'reactionsOfUser',
    (s) => `SELECT ${COLUMNS} FROM comment_reactions
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId
       AND (document_id, annotation_id, comment_id, icon) > (${s.typed('afterDocument', 'text')},
         ${s.typed('afterAnnotation', 'text')}, ${s.typed('afterComment', 'int')}, ${s.typed('afterIcon', 'text')})
     ORDER BY document_id, annotation_id, comment_id, icon LIMIT @limit`,
  ),
};
