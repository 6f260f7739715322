// The statements of activity logs and their settings (docs/api.md, "Activities"; migration 32), SQLite and
// PostgreSQL side by side. Every statement is scoped by tenant first; the reads walk an index in time order.
import { POSTGRES, SQLITE, type Syntax } from '../dialect/syntax.js';
import { madeOnDemand, same, sql, type Statement, written } from '../sql.js';

const COLUMNS =
  'organization_id, activity_id, document_id, feature_type, action_type, actor_id, target_entity_id, created_at, immutable, body';

/**
 * Whether the tenant keeps activities (its settings, else the installation's default: @byDefault) and
 * whether its triggers leave the action type on: checked inside the one insert, so a write reads nothing
 * more for its activities. `s` is the tenant's settings row, `type` the row's action type.
 */
const kept = (s: Syntax, type: string) =>
  `coalesce(st.is_enabled, ${s.typed('byDefault', 'boolean')})
   AND NOT EXISTS (SELECT 1 FROM activity_muted m WHERE m.tenant_id = @tenantId AND m.action_type = ${type})`;

/** The settings row, for `kept` and the immutability a new activity is written with. */
const SETTINGS_JOIN = 'LEFT JOIN activity_settings st ON st.tenant_id = @tenantId';

/** What activities/get filters by, as the statement is made for it (a filter absent is left out of the text). */
export interface ActivityFilterSet {
  document: boolean;
  target: boolean;
  featureTypes: boolean;
  actionTypes: boolean;
  user: boolean;
  ids: boolean;
  ascending: boolean;
  after: boolean;
}

/** A short key (PostgreSQL truncates a prepared statement's name past 63 bytes): a letter per filter given. */
const filterKey = (f: ActivityFilterSet): string =>
  Object.entries(f)
    .map(([k, v]) => (v ? k.slice(0, 2) : ''))
    .join('');

function readText(s: Syntax, f: ActivityFilterSet): string {
  const cmp = f.ascending ? '>' : '<';
  const dir = f.ascending ? 'ASC' : 'DESC';
  return `SELECT ${COLUMNS} FROM activities
    WHERE tenant_id = @tenantId AND organization_id = @organizationId
    ${f.document ? 'AND document_id = @documentId' : ''}
    ${f.target ? 'AND target_entity_id = @targetEntityId' : ''}
    ${f.featureTypes ? `AND ${s.isIn('feature_type', 'featureTypes')}` : ''}
    ${f.actionTypes ? `AND ${s.isIn('action_type', 'actionTypes')}` : ''}
    ${f.user ? 'AND actor_id = @userId' : ''}
    ${f.ids ? `AND ${s.isIn('activity_id', 'activityIds')}` : ''}
    ${
      f.after
        ? `AND (created_at ${cmp} ${s.typed('afterTime', 'bigint')}
            OR (created_at = ${s.typed('afterTime', 'bigint')} AND activity_id ${cmp} ${s.typed('afterId', 'text')}))`
        : ''
    }
    ORDER BY created_at ${dir}, activity_id ${dir} LIMIT @limit`;
}

/** activities/get's read for a filter set (a handful are used; made once each). */
export const activityRead = madeOnDemand(filterKey, (f: ActivityFilterSet) => ({
  sqlite: { name: `activities ${filterKey(f)}`, text: readText(SQLITE, f) },
  postgres: { name: `activities ${filterKey(f)}`, text: readText(POSTGRES, f) },
}));

/** The rows of activities/delete by document and entity: at most @limit at a time (a batch: store/batches.ts). */
function deleteSome(document: boolean, target: boolean): Statement {
  const where = (s: Syntax) => `tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isFalse('immutable')}
    ${document ? 'AND document_id = @documentId' : ''} ${target ? 'AND target_entity_id = @targetEntityId' : ''}`;
  return sql(`deleteSomeActivities${document ? 'OfDocument' : ''}${target ? 'OfTarget' : ''}`, {
    sqlite: `DELETE FROM activities WHERE rowid IN (SELECT rowid FROM activities WHERE ${where(SQLITE)} LIMIT @limit)
      RETURNING activity_id`,
    postgres: `DELETE FROM activities WHERE ctid = ANY(ARRAY(SELECT ctid FROM activities WHERE ${where(POSTGRES)} LIMIT @limit))
      RETURNING activity_id`,
  });
}

export const ACTIVITIES_SQL = {
  /**
   * A write's events as activities (core.ts, `emitting`): SQLite once per event, PostgreSQL once for all
   * of them (each column an array), sent with the write's last statements, without a round trip.
   */
  fromEvents: sql('insertActivitiesOfEvents', {
    sqlite: `INSERT INTO activities (tenant_id, ${COLUMNS})
      SELECT @tenantId, @organizationId, @activityId, @documentId, @featureType, @actionType, @actorId, @targetEntityId,
        @createdAt, coalesce(st.immutable, 0), @body
      FROM (SELECT 1) one ${SETTINGS_JOIN}
      WHERE ${kept(SQLITE, '@actionType')}`,
    postgres: `INSERT INTO activities (tenant_id, ${COLUMNS})
      SELECT @tenantId, r.organization_id, r.activity_id, r.document_id, r.feature_type, r.action_type, r.actor_id,
        r.target_entity_id, @createdAt::bigint, coalesce(st.immutable, false), r.body
      FROM unnest(@organizationId::text[], @activityId::text[], @documentId::text[], @featureType::text[],
        @actionType::text[], @actorId::text[], @targetEntityId::text[], @body::text[])
        AS r(organization_id, activity_id, document_id, feature_type, action_type, actor_id, target_entity_id, body)
      ${SETTINGS_JOIN}
      WHERE ${kept(POSTGRES, 'r.action_type')}`,
  }),
  /**
   * activities/add and operators' activities: written (or, for a given id, written over unless the stored
   * one is immutable) with the immutability the settings say; answers the ids written.
   */
  upsert: sql('upsertActivities', {
    sqlite: `INSERT INTO activities (tenant_id, ${COLUMNS})
      SELECT @tenantId, @organizationId, @activityId, @documentId, @featureType, @actionType, @actorId, @targetEntityId,
        @createdAt, coalesce(st.immutable, 0), @body
      FROM (SELECT 1) one ${SETTINGS_JOIN}
      WHERE true
      ON CONFLICT (tenant_id, organization_id, activity_id) DO UPDATE SET document_id = excluded.document_id,
        feature_type = excluded.feature_type, action_type = excluded.action_type, actor_id = excluded.actor_id,
        target_entity_id = excluded.target_entity_id, created_at = excluded.created_at, immutable = excluded.immutable,
        body = excluded.body
      WHERE activities.immutable = 0`,
    postgres: `INSERT INTO activities (tenant_id, ${COLUMNS})
      SELECT @tenantId, r.organization_id, r.activity_id, r.document_id, r.feature_type, r.action_type, r.actor_id,
        r.target_entity_id, @createdAt::bigint, coalesce(st.immutable, false), r.body
      FROM unnest(@organizationId::text[], @activityId::text[], @documentId::text[], @featureType::text[],
        @actionType::text[], @actorId::text[], @targetEntityId::text[], @body::text[])
        AS r(organization_id, activity_id, document_id, feature_type, action_type, actor_id, target_entity_id, body)
      ${SETTINGS_JOIN}
      ORDER BY r.activity_id
      ON CONFLICT (tenant_id, organization_id, activity_id) DO UPDATE SET document_id = excluded.document_id,
        feature_type = excluded.feature_type, action_type = excluded.action_type, actor_id = excluded.actor_id,
        target_entity_id = excluded.target_entity_id, created_at = excluded.created_at, immutable = excluded.immutable,
        body = excluded.body
      WHERE NOT activities.immutable`,
  }),
  /** Whether the tenant keeps activities now (activities/add is refused when it does not). */
  enabled: written(
    'activitiesEnabled',
    (s) => `SELECT coalesce((SELECT is_enabled FROM activity_settings WHERE tenant_id = @tenantId),
      ${s.typed('byDefault', 'boolean')}) AS enabled`,
  ),
  /** The activities named, locked (PostgreSQL) for activities/update. */
  byIds: written(
    'activitiesByIds',
    (s) => `SELECT activity_id, immutable, body FROM activities
      WHERE tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isIn('activity_id', 'activityIds')}
      ORDER BY activity_id${s.lock('UPDATE')}`,
  ),
  /** A batch: one activity's new body each. */
  updateBody: sql('updateActivityBodies', {
    sqlite: `UPDATE activities SET body = @body
      WHERE tenant_id = @tenantId AND organization_id = @organizationId AND activity_id = @activityId`,
    postgres: `UPDATE activities a SET body = r.body FROM unnest(@activityId::text[], @body::text[]) AS r(activity_id, body)
      WHERE a.tenant_id = @tenantId AND a.organization_id = @organizationId AND a.activity_id = r.activity_id`,
  }),
  /** activities/delete by ids (the immutable ones stay); answers those that went. */
  deleteByIds: written(
    'deleteActivitiesByIds',
    (s) => `DELETE FROM activities WHERE tenant_id = @tenantId AND organization_id = @organizationId
      AND ${s.isIn('activity_id', 'activityIds')} AND ${s.isFalse('immutable')} RETURNING activity_id`,
  ),
  deleteOfDocument: deleteSome(true, false),
  deleteOfTarget: deleteSome(false, true),
  deleteOfDocumentAndTarget: deleteSome(true, true),

  // --- Settings (workspace/activityconfig) ---
  settings: same(
    'activitySettings',
    'SELECT is_enabled, immutable, enabled_time, retention_days, triggers FROM activity_settings WHERE tenant_id = @tenantId',
  ),
  putSettings: same(
    'putActivitySettings',
    `INSERT INTO activity_settings (tenant_id, is_enabled, immutable, enabled_time, retention_days, triggers, updated_at)
     VALUES (@tenantId, @isEnabled, @immutable, @enabledTime, @retentionDays, @triggers, @now)
     ON CONFLICT (tenant_id) DO UPDATE SET is_enabled = excluded.is_enabled, immutable = excluded.immutable,
       enabled_time = excluded.enabled_time, retention_days = excluded.retention_days, triggers = excluded.triggers,
       updated_at = excluded.updated_at`,
  ),
  /** PostgreSQL: the tenant's settings row, so two updates merge one after the other. */
  lockSettings: written(
    'lockActivitySettings',
    (s) => `SELECT tenant_id FROM activity_settings WHERE tenant_id = @tenantId${s.lock('UPDATE')}`,
  ),
  clearMuted: same('clearMutedActivities', 'DELETE FROM activity_muted WHERE tenant_id = @tenantId'),
  mute: written(
    'muteActivities',
    (s) => `INSERT INTO activity_muted (tenant_id, action_type) SELECT @tenantId, t.value FROM ${s.listRows('types', 't')}`,
  ),

  // --- Retention ---
  /** Every tenant with its retention in days (its settings, else @defaultDays). */
  retentions: written(
    'activityRetentions',
    (s) => `SELECT t.id AS tenant_id, coalesce(st.retention_days, ${s.typed('defaultDays', 'integer')}) AS days
      FROM tenants t LEFT JOIN activity_settings st ON st.tenant_id = t.id ORDER BY t.id`,
  ),
  /** At most @limit of a tenant's activities made before @before (through activities_by_age). */
  pruneTenant: written('pruneTenantActivities', (s) =>
    s.deleteSome('activities', 'tenant_id = @tenantId AND created_at < @before'),
  ),

  /** users/data/get: the activities a user did, newest first, after (@afterTime, @afterId). */
  ofActor: same(
    'activitiesOfActor',
    `SELECT ${COLUMNS} FROM activities
      WHERE tenant_id = @tenantId AND organization_id = @organizationId AND actor_id = @userId
        AND (created_at < @afterTime OR (created_at = @afterTime AND activity_id < @afterId))
      ORDER BY created_at DESC, activity_id DESC LIMIT @limit`,
  ),

  // --- Erasure (personal-data/erasure.ts) ---
  /** The tenant's activities after a key, in key order: what an erasure looks through. */
  window: same(
    'activityWindow',
    `SELECT organization_id, activity_id, body FROM activities
      WHERE tenant_id = @tenantId AND (organization_id > @afterOrganization
        OR (organization_id = @afterOrganization AND activity_id > @afterId))
      ORDER BY organization_id, activity_id LIMIT @limit`,
  ),
  /** A batch: one activity each, by key. */
  deleteByKey: sql('deleteActivityByKey', {
    sqlite: `DELETE FROM activities WHERE tenant_id = @tenantId AND organization_id = @organizationId
      AND activity_id = @activityId`,
    postgres: `DELETE FROM activities a USING unnest(@organizationId::text[], @activityId::text[]) AS r(organization_id, activity_id)
      WHERE a.tenant_id = @tenantId AND a.organization_id = r.organization_id AND a.activity_id = r.activity_id`,
  }),
};
