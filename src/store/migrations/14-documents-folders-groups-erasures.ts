import type { Migration } from './migration.js';

/** Migration 14: every document some row names. */
const KNOWN_DOCUMENTS = `SELECT tenant_id, organization_id, document_id FROM annotations
  UNION SELECT tenant_id, organization_id, document_id FROM notifications WHERE document_id IS NOT NULL
  UNION SELECT tenant_id, organization_id, scope_id FROM memberships WHERE scope_kind = 'document'
  UNION SELECT tenant_id, organization_id, document_id FROM notification_settings
  UNION SELECT tenant_id, organization_id, document_id FROM document_versions`;

export const documentsFoldersGroupsErasures: Migration = {
  version: 14,
  name: 'documents, folders, groups and erasures are objects',
  // docs/api.md "Documents". A document has a row from its first write on, like an organization (migration 13); the
  // documents a database already holds get theirs here. A folder's parent and a document's folder are
  // NULL at the top. Erasure jobs (users/data/delete) keep only what their status answers.
  sqlite: `
CREATE TABLE documents (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  folder_id        TEXT,
  access_type      TEXT NOT NULL DEFAULT 'organizationPrivate',
  disabled         INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX documents_by_folder ON documents (tenant_id, organization_id, folder_id, document_id);
CREATE TABLE folders (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  folder_id        TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  parent_id        TEXT,
  access_type      TEXT NOT NULL DEFAULT 'organizationPrivate',
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, folder_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX folders_by_parent ON folders (tenant_id, organization_id, parent_id, folder_id);
CREATE TABLE user_groups (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  group_id         TEXT NOT NULL,
  name             TEXT NOT NULL DEFAULT '',
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE group_members (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  group_id         TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX group_members_by_user ON group_members (tenant_id, organization_id, user_id);
CREATE TABLE erasure_jobs (
  tenant_id        TEXT NOT NULL,
  job_id           TEXT NOT NULL,
  tasks_count      INTEGER NOT NULL,
  completed_at     INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, job_id)
) STRICT, WITHOUT ROWID;
INSERT INTO documents (tenant_id, organization_id, document_id, created_at, updated_at)
  SELECT tenant_id, organization_id, document_id, CAST(unixepoch('subsec') * 1000 AS INTEGER), CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM (${KNOWN_DOCUMENTS}) known ORDER BY 1, 2, 3;
`,
  postgres: `
CREATE TABLE documents (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  folder_id        text COLLATE "C",
  access_type      text NOT NULL DEFAULT 'organizationPrivate',
  disabled         boolean NOT NULL DEFAULT false,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id)
);
CREATE INDEX documents_by_folder ON documents (tenant_id, organization_id, folder_id, document_id);
CREATE TABLE folders (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  folder_id        text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  parent_id        text COLLATE "C",
  access_type      text NOT NULL DEFAULT 'organizationPrivate',
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, folder_id)
);
CREATE INDEX folders_by_parent ON folders (tenant_id, organization_id, parent_id, folder_id);
CREATE TABLE user_groups (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  group_id         text COLLATE "C" NOT NULL,
  name             text NOT NULL DEFAULT '',
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id)
);
CREATE TABLE group_members (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  group_id         text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, group_id, user_id)
);
CREATE INDEX group_members_by_user ON group_members (tenant_id, organization_id, user_id);
CREATE TABLE erasure_jobs (
  tenant_id        text COLLATE "C" NOT NULL,
  job_id           text COLLATE "C" NOT NULL,
  tasks_count      bigint NOT NULL,
  completed_at     bigint NOT NULL,
  PRIMARY KEY (tenant_id, job_id)
);
INSERT INTO documents (tenant_id, organization_id, document_id, created_at, updated_at)
  SELECT tenant_id, organization_id, document_id, (extract(epoch FROM now()) * 1000)::bigint, (extract(epoch FROM now()) * 1000)::bigint
  FROM (${KNOWN_DOCUMENTS}) known ORDER BY 1, 2, 3;
`,
};
