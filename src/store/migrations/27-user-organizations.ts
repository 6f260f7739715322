import type { Migration } from './migration.js';

/**
 * Migration 27: where each user has a row of their own (USER_COLUMNS) or is named in JSON (NAMING: a
 * tag, an assignment, a notification's template data), so users/data/delete visits those organizations
 * only, found by user, instead of walking every organization of the tenant (personal-data/erasure.ts).
 * Triggers keep it, on every insert and on each change of a naming column, so no write path can miss
 * one; rows that go leave their entry (a visit then finds nothing, cheaply), and an erasure and
 * organizations/delete take theirs. `named` is part of the key, so every trigger only inserts, with
 * ON CONFLICT DO NOTHING: no entry is ever updated, and no write waits on another's entry. The
 * backfill reads each table once. The list is the migration's own, not personal-data/sql.ts's
 * HELD_BY_USER that it resembles: a released migration's text never changes, whatever that one becomes.
 */
export const USER_COLUMNS: readonly [table: string, column: string][] = [
  ['users', 'user_id'],
  ['comments', 'from_user_id'],
  ['notifications', 'action_user_id'],
  ['inbox', 'user_id'],
  ['memberships', 'user_id'],
  ['group_members', 'user_id'],
  ['annotation_reads', 'user_id'],
  ['notification_reads', 'user_id'],
  ['notification_settings', 'user_id'],
];
/**
 * The userIds a JSON column of a row `r` names (as personal-data/erasure.ts reads them), per database.
 * SQLite: entries of user_organizations, from `new` in a trigger (`from` empty) or from the table's
 * rows (`from`: "table r, "), as json_each reads a column of a table before it in the join. PostgreSQL:
 * the userIds, read LATERAL of the row.
 */
export const NAMING: readonly {
  table: string;
  column: string;
  sqlite: (r: string, from: string) => string;
  postgres: (r: string) => string;
}[] = [
  {
    table: 'comments',
    column: 'tagged_user_contacts',
    sqlite: (r, from) =>
      ['$.userId', '$.contact.userId']
        .map(
          (path) => `SELECT ${r}.tenant_id, json_extract(t.value, '${path}') AS user_id, ${r}.organization_id, 1
      FROM ${from}json_each(${r}.tagged_user_contacts) t WHERE t.type = 'object'`,
        )
        .join(' UNION '),
    postgres: (r) => `SELECT e->>'userId' AS user_id FROM jsonb_array_elements(CASE
        WHEN jsonb_typeof(${r}.tagged_user_contacts::jsonb) = 'array' THEN ${r}.tagged_user_contacts::jsonb ELSE '[]' END) e
      WHERE jsonb_typeof(e) = 'object'
      UNION SELECT e->'contact'->>'userId' FROM jsonb_array_elements(CASE
        WHEN jsonb_typeof(${r}.tagged_user_contacts::jsonb) = 'array' THEN ${r}.tagged_user_contacts::jsonb ELSE '[]' END) e
      WHERE jsonb_typeof(e) = 'object' AND jsonb_typeof(e->'contact') = 'object'`,
  },
  {
    table: 'annotations',
    column: 'assigned_to',
    sqlite: (r, from) => `SELECT ${r}.tenant_id, json_extract(${r}.assigned_to, '$.userId') AS user_id, ${r}.organization_id, 1
      ${from ? `FROM ${from.slice(0, -2)}` : ''} WHERE json_type(${r}.assigned_to) = 'object'`,
    postgres: (r) =>
      `SELECT ${r}.assigned_to::jsonb->>'userId' AS user_id WHERE jsonb_typeof(${r}.assigned_to::jsonb) = 'object'`,
  },
  {
    table: 'notifications',
    column: 'headline_data',
    sqlite: (r, from) => `SELECT ${r}.tenant_id, json_extract(t.value, '$.userId') AS user_id, ${r}.organization_id, 1
      FROM ${from}json_each(${r}.headline_data) t WHERE t.type = 'object'`,
    postgres: (r) => `SELECT v.value->>'userId' AS user_id FROM jsonb_each(CASE
        WHEN jsonb_typeof(${r}.headline_data::jsonb) = 'object' THEN ${r}.headline_data::jsonb ELSE '{}' END) v
      WHERE jsonb_typeof(v.value) = 'object'`,
  },
];
const USER_ORGANIZATIONS = {
  sqlite: `
CREATE TABLE user_organizations (
  tenant_id        TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  named            INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, user_id, organization_id, named)
) STRICT, WITHOUT ROWID;
CREATE INDEX user_organizations_by_organization ON user_organizations (tenant_id, organization_id);
${USER_COLUMNS.map(
  ([table, column]) => `CREATE TRIGGER ${table}_user_organization AFTER INSERT ON ${table} BEGIN
  INSERT OR IGNORE INTO user_organizations VALUES (new.tenant_id, new.${column}, new.organization_id, 0);
END;
CREATE TRIGGER ${table}_user_organization_update AFTER UPDATE OF ${column} ON ${table} WHEN new.${column} IS NOT old.${column} BEGIN
  INSERT OR IGNORE INTO user_organizations VALUES (new.tenant_id, new.${column}, new.organization_id, 0);
END;
INSERT OR IGNORE INTO user_organizations SELECT DISTINCT tenant_id, ${column}, organization_id, 0 FROM ${table};`,
).join('\n')}
${NAMING.map((n) => {
  const named = (select: string) => `INSERT OR IGNORE INTO user_organizations
    SELECT * FROM (${select}) x WHERE typeof(x.user_id) = 'text'`;
  return `CREATE TRIGGER ${n.table}_insert_names_users AFTER INSERT ON ${n.table} WHEN new.${n.column} IS NOT NULL BEGIN
  ${named(n.sqlite('new', ''))};
END;
CREATE TRIGGER ${n.table}_update_names_users AFTER UPDATE OF ${n.column} ON ${n.table}
  WHEN new.${n.column} IS NOT NULL AND new.${n.column} IS NOT old.${n.column} BEGIN
  ${named(n.sqlite('new', ''))};
END;
${named(n.sqlite('r', `${n.table} r, `))};`;
}).join('\n')}
`,
  postgres: `
CREATE TABLE user_organizations (
  tenant_id        text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  named            boolean NOT NULL,
  PRIMARY KEY (tenant_id, user_id, organization_id, named)
);
CREATE INDEX user_organizations_by_organization ON user_organizations (tenant_id, organization_id);
${USER_COLUMNS.map(
  ([table, column]) => `CREATE FUNCTION ${table}_user_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_organizations SELECT DISTINCT tenant_id, ${column}, organization_id, false FROM added ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER ${table}_user_organizations AFTER INSERT ON ${table} REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION ${table}_user_organizations();
CREATE FUNCTION ${table}_user_organizations_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_organizations VALUES (NEW.tenant_id, NEW.${column}, NEW.organization_id, false) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER ${table}_user_organizations_update AFTER UPDATE OF ${column} ON ${table} FOR EACH ROW
  WHEN (NEW.${column} IS DISTINCT FROM OLD.${column}) EXECUTE FUNCTION ${table}_user_organizations_update();
INSERT INTO user_organizations SELECT DISTINCT tenant_id, ${column}, organization_id, false FROM ${table} ON CONFLICT DO NOTHING;`,
).join('\n')}
${NAMING.map((n) => {
  const names = (from: string) => `INSERT INTO user_organizations SELECT DISTINCT r.tenant_id, x.user_id, r.organization_id, true
    FROM ${from} r, LATERAL (${n.postgres('r')}) x WHERE r.${n.column} IS NOT NULL AND x.user_id IS NOT NULL ON CONFLICT DO NOTHING`;
  return `CREATE FUNCTION ${n.table}_insert_names_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${names('named_rows')};
  RETURN NULL;
END $$;
CREATE TRIGGER ${n.table}_insert_names_users AFTER INSERT ON ${n.table} REFERENCING NEW TABLE AS named_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.table}_insert_names_users();
CREATE FUNCTION ${n.table}_update_names_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${names('(SELECT NEW.*)')};
  RETURN NULL;
END $$;
CREATE TRIGGER ${n.table}_update_names_users AFTER UPDATE OF ${n.column} ON ${n.table} FOR EACH ROW
  WHEN (NEW.${n.column} IS NOT NULL AND NEW.${n.column} IS DISTINCT FROM OLD.${n.column})
  EXECUTE FUNCTION ${n.table}_update_names_users();
${names(n.table)};`;
}).join('\n')}
`,
};

export const userOrganizations: Migration = {
  version: 27,
  name: 'the organizations of each user',
  sqlite: USER_ORGANIZATIONS.sqlite,
  postgres: USER_ORGANIZATIONS.postgres,
};
