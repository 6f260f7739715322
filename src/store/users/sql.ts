// The statements of user profiles and memberships, SQLite and PostgreSQL side by side.
import { DISABLED_IN_SCOPE } from '../organizations/sql.js';
import { POSTGRES } from '../dialect/syntax.js';
import { same, sql, written } from '../sql.js';

// A field given as NULL keeps its stored value: users/add and users/update change only what they name.
const UPDATE_USER = `UPDATE users SET name = coalesce(@name, name), email = coalesce(@email, email),
                       photo_url = coalesce(@photoUrl, photo_url), updated_at = @now
                     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND user_id = @userId`;

/** users/update in the scope of a membership: a user who is not a member changes nothing. */
const MEMBER = (user: string) => `EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = @tenantId
  AND m.organization_id = @organizationId AND m.scope_kind = @kind AND m.scope_id = @scopeId AND m.user_id = ${user})`;

/** Bumps the organization's profile version (migration 7): the first step of every write to its users. */
const BUMP_PROFILE_VERSION = `INSERT INTO profile_versions (tenant_id, organization_id, version)
  VALUES (@tenantId, @organizationId, 1)
  ON CONFLICT (tenant_id, organization_id) DO UPDATE SET version = profile_versions.version + 1`;

/**
 * PostgreSQL: every user of a users/update in one statement, from arrays, with the version bump; the
 * UPDATE joins the bump's row, so the version row is locked before any user row, as in every users
 * write (one lock order, no deadlock). SQLite: the bump, then the statement once per user.
 */
const updateUsers = (scoped: boolean) =>
  sql(scoped ? 'updateMembers' : 'updateUsers', {
    // The changed profiles come back whole: users/update's events show them (events.ts), with no read after.
    sqlite: `${UPDATE_USER}${scoped ? ` AND ${MEMBER('@userId')}` : ''} RETURNING user_id, name, email, photo_url`,
    // A disabled organization (or document scope) changes nothing and answers a row `what` (docs/api.md,
    // "Disabled organizations and documents").
    postgres: `WITH refused AS (${DISABLED_IN_SCOPE(POSTGRES)}),
               bump AS (INSERT INTO profile_versions (tenant_id, organization_id, version)
                 SELECT @tenantId, @organizationId, 1 WHERE NOT EXISTS (SELECT 1 FROM refused)
                 ON CONFLICT (tenant_id, organization_id) DO UPDATE SET version = profile_versions.version + 1
                 RETURNING version),
               changed AS (UPDATE users u SET name = coalesce(x.name, u.name), email = coalesce(x.email, u.email),
                 photo_url = coalesce(x.photo_url, u.photo_url), updated_at = @now
               FROM bump, unnest(@userId::text[], @name::text[], @email::text[], @photoUrl::text[])
                 AS x(user_id, name, email, photo_url)
               WHERE u.tenant_id = @tenantId AND u.organization_id = @organizationId AND u.user_id = x.user_id
                 ${scoped ? `AND ${MEMBER('x.user_id')}` : ''}
               RETURNING u.user_id, u.name, u.email, u.photo_url)
               SELECT user_id, name, email, photo_url, NULL AS what FROM changed
               UNION ALL SELECT NULL, NULL, NULL, NULL, what FROM refused`,
  });

export const USERS_SQL = {
  bumpProfileVersion: same('bumpProfileVersion', BUMP_PROFILE_VERSION),
  /**
   * users/update's first step on SQLite: the bump, answering whether the organization (or the
   * document scope, @documentId) is disabled, so the check costs no statement of its own (docs/api.md,
   * "Disabled organizations and documents"; the caller throws, and the transaction writes nothing). PostgreSQL's
   * statement does both itself.
   */
  bumpUnlessDisabled: same(
    'bumpProfileVersionUnlessDisabled',
    `${BUMP_PROFILE_VERSION} RETURNING CASE
       WHEN EXISTS (SELECT 1 FROM organizations o WHERE o.tenant_id = @tenantId AND o.organization_id = @organizationId
         AND o.disabled) THEN 'organization'
       WHEN EXISTS (SELECT 1 FROM documents d WHERE d.tenant_id = @tenantId AND d.organization_id = @organizationId
         AND d.document_id = @documentId AND d.disabled) THEN 'document' END AS what`,
  ),
  upsert: same(
    'upsertUser',
    `INSERT INTO users (tenant_id, organization_id, user_id, name, email, photo_url, created_at, updated_at)
     VALUES (@tenantId, @organizationId, @userId, @name, @email, @photoUrl, @now, @now)
     ON CONFLICT (tenant_id, organization_id, user_id) DO UPDATE SET
       name = coalesce(excluded.name, users.name),
       email = coalesce(excluded.email, users.email),
       photo_url = coalesce(excluded.photo_url, users.photo_url),
       updated_at = excluded.updated_at
     RETURNING user_id, name, email, photo_url`,
  ),
  updateUsers: updateUsers(false),
  // The scope check and the change in one statement.
  updateMembers: updateUsers(true),
  insertMembership: same(
    'insertMembership',
    `INSERT INTO memberships (tenant_id, organization_id, scope_kind, scope_id, user_id)
     VALUES (@tenantId, @organizationId, @kind, @scopeId, @userId) ON CONFLICT DO NOTHING`,
  ),
  organizationProfiles: same(
    'organizationProfiles',
    `SELECT user_id, name, email, photo_url FROM users
     WHERE tenant_id = @tenantId AND organization_id = @organizationId ORDER BY user_id LIMIT @limit`,
  ),
  profiles: written(
    'profiles',
    (s) => `SELECT user_id, name, email, photo_url FROM users
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND ${s.isIn('user_id', 'userIds')}`,
  ),
};
