import type { Migration } from './migration.js';

export const accessRoles: Migration = {
  version: 40,
  name: "users' roles on organizations, folders and documents",
  // access_roles: a user's role (viewer or editor) on a resource of one organization, until expires_at
  // (ms; null: for good), set by auth/permissions/add|remove, users/add|update `accessRole` and a v2
  // token's `permissions.resources[]` (docs/decisions.md, "Permissions"). An organization's row has
  // resource_id ''. The key serves the access check (store/access-roles/: a user's roles in one
  // organization, by resource) and auth/permissions/get; access_roles_by_user serves users/data/delete,
  // which erases a user's roles wherever they are, and access_roles_by_resource the deletes of folders
  // and documents, whose roles go with them.
  sqlite: `
CREATE TABLE access_roles (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  resource_kind    TEXT NOT NULL CHECK (resource_kind IN ('organization', 'folder', 'document')),
  resource_id      TEXT NOT NULL,
  access_role      TEXT NOT NULL CHECK (access_role IN ('viewer', 'editor')),
  expires_at       INTEGER,
  granted_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id, resource_kind, resource_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX access_roles_by_user ON access_roles (tenant_id, user_id);
CREATE INDEX access_roles_by_resource ON access_roles (tenant_id, organization_id, resource_kind, resource_id);
`,
  postgres: `
CREATE TABLE access_roles (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  resource_kind    text COLLATE "C" NOT NULL CHECK (resource_kind IN ('organization', 'folder', 'document')),
  resource_id      text COLLATE "C" NOT NULL,
  access_role      text COLLATE "C" NOT NULL CHECK (access_role IN ('viewer', 'editor')),
  expires_at       bigint,
  granted_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id, resource_kind, resource_id)
);
CREATE INDEX access_roles_by_user ON access_roles (tenant_id, user_id);
CREATE INDEX access_roles_by_resource ON access_roles (tenant_id, organization_id, resource_kind, resource_id);
`,
};
