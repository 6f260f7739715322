// The statements of retention policies and of what they delete (migration 42; docs/api.md, "Retention"),
// SQLite and PostgreSQL side by side. Each "due" read finds the oldest rows first through an index that
// starts at the organization and the age (notifications_by_age, annotations_by_update), so a batch reads
// about as many rows as it deletes, however large the backlog.
import type { Syntax } from '../dialect/syntax.js';
import { same, type Statement, written } from '../sql.js';

const ORG = 'tenant_id = @tenantId AND organization_id = @organizationId';
const POLICY_COLUMNS =
  'organization_id, notifications_days, notifications_scope, resolved_threads_days, events_days, activities_days';

/** A notification no listed recipient has unread (an organization-wide one is never "read": docs/api.md, "Retention"). */
const readByAll = (s: Syntax) =>
  `${s.isFalse('n.notify_all')} AND NOT EXISTS (SELECT 1 FROM inbox i
     WHERE i.tenant_id = n.tenant_id AND i.organization_id = n.organization_id AND i.notification_id = n.notification_id
       AND ${s.isTrue('i.unread')})`;

/** The notifications a window reaches: older than @before, and read by all under the `read` scope. */
const dueNotifications = (s: Syntax, scope: 'read' | 'all') =>
  `n.tenant_id = @tenantId AND n.organization_id = @organizationId AND n.timestamp < @before` +
  (scope === 'read' ? ` AND ${readByAll(s)}` : '');

/** A thread whose status is terminal (resolved: docs/api.md, "commentannotations/update"), last changed before @before. */
const dueThreads = (s: Syntax) => `${ORG} AND last_updated < @before AND ${s.jsonMember('status', 'type')} = 'terminal'`;

const bothScopes = (make: (scope: 'read' | 'all') => Statement) => ({ read: make('read'), all: make('all') });

export const RETENTION_SQL = {
  policies: same(
    'retentionPolicies',
    `SELECT ${POLICY_COLUMNS} FROM retention_policies WHERE tenant_id = @tenantId ORDER BY organization_id`,
  ),
  writePolicy: same(
    'writeRetentionPolicy',
    `INSERT INTO retention_policies (tenant_id, organization_id, notifications_days, notifications_scope,
       resolved_threads_days, events_days, activities_days, updated_at)
     VALUES (@tenantId, @organizationId, @notificationsDays, @notificationsScope, @resolvedThreadsDays, @eventsDays,
       @activitiesDays, @now)
     ON CONFLICT (tenant_id, organization_id) DO UPDATE SET notifications_days = excluded.notifications_days,
       notifications_scope = excluded.notifications_scope, resolved_threads_days = excluded.resolved_threads_days,
       events_days = excluded.events_days, activities_days = excluded.activities_days, updated_at = excluded.updated_at`,
  ),
  deletePolicy: same(
    'deleteRetentionPolicy',
    'DELETE FROM retention_policies WHERE tenant_id = @tenantId AND organization_id = @organizationId',
  ),
  /** The tenants with a policy: those the retention job visits. */
  tenants: same('retentionTenants', 'SELECT DISTINCT tenant_id FROM retention_policies ORDER BY tenant_id'),
  /** The tenant's organizations: where its own policy reaches. */
  organizations: same(
    'retentionOrganizations',
    'SELECT organization_id FROM organizations WHERE tenant_id = @tenantId ORDER BY organization_id',
  ),

  // --- Notifications ---
  countNotifications: bothScopes((scope) =>
    written(
      `countDueNotifications_${scope}`,
      (s) => `SELECT count(*) AS n FROM notifications n WHERE ${dueNotifications(s, scope)}`,
    ),
  ),
  /** The oldest @limit notifications due. */
  notifications: bothScopes((scope) =>
    written(
      `dueNotifications_${scope}`,
      (s) => `SELECT n.notification_id FROM notifications n WHERE ${dueNotifications(s, scope)}
       ORDER BY n.timestamp, n.notification_id LIMIT @limit`,
    ),
  ),
  /**
   * Those of @ids still due, deleted (after their rows were locked): a read mark taken back meanwhile keeps
   * one under the `read` scope. Its inbox rows and read marks go next (notifications/sql.ts), for the ids it answers.
   */
  deleteNotifications: bothScopes((scope) =>
    written(
      `deleteDueNotifications_${scope}`,
      (s) => `DELETE FROM notifications AS n WHERE ${dueNotifications(s, scope)} AND ${s.isIn('n.notification_id', 'ids')}
       RETURNING notification_id`,
    ),
  ),

  // --- Resolved threads ---
  countThreads: written('countDueThreads', (s) => `SELECT count(*) AS n FROM annotations WHERE ${dueThreads(s)}`),
  /** The oldest @limit resolved threads due (annotations_by_update). */
  threads: written(
    'dueThreads',
    (s) => `SELECT document_id, annotation_id FROM annotations WHERE ${dueThreads(s)}
      ORDER BY last_updated, document_id, annotation_id LIMIT @limit`,
  ),
  /**
   * Of a document's threads @annotationIds, those still due, locked in key order on PostgreSQL (as comment
   * writes lock a thread before its comments change): a thread reopened or commented on meanwhile is kept.
   */
  lockThreads: written(
    'lockDueThreads',
    (s) => `SELECT annotation_id FROM annotations WHERE ${dueThreads(s)} AND document_id = @documentId
      AND ${s.isIn('annotation_id', 'annotationIds')} ${s.lockInOrder('annotation_id', 'UPDATE')}`,
  ),

  // --- The tenant's logs ---
  countEvents: same('countDueEvents', 'SELECT count(*) AS n FROM events WHERE tenant_id = @tenantId AND created_at < @before'),
  countActivities: same(
    'countDueActivities',
    'SELECT count(*) AS n FROM activities WHERE tenant_id = @tenantId AND created_at < @before',
  ),
};
