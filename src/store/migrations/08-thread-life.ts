import type { Migration } from './migration.js';

export const threadLife: Migration = {
  version: 8,
  name: 'comment threads with a whole life',
  // docs/api.md "Comment threads". A thread gains its lastUpdated, the members an import keeps (assignedTo,
  // priority, targetElement; taggedUserContacts on comments), and two columns that its filters read without
  // parsing JSON or walking comments: status_id (the status object's id) and first_user_id (the
  // author of its first comment). A user's read mark per thread is a row of annotation_reads. A
  // document's threads are read newest first through annotations_by_time.
  sqlite: `
ALTER TABLE annotations ADD COLUMN last_updated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE annotations ADD COLUMN status_id TEXT;
ALTER TABLE annotations ADD COLUMN first_user_id TEXT;
ALTER TABLE annotations ADD COLUMN assigned_to TEXT;
ALTER TABLE annotations ADD COLUMN priority TEXT;
ALTER TABLE annotations ADD COLUMN target_element TEXT;
ALTER TABLE comments ADD COLUMN tagged_user_contacts TEXT;
UPDATE annotations AS a SET
  status_id = CASE WHEN json_type(a.status, '$.id') = 'text' THEN json_extract(a.status, '$.id') END,
  first_user_id = (SELECT c.from_user_id FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id
    ORDER BY c.seq LIMIT 1),
  last_updated = max(a.created_at, coalesce((SELECT max(c.last_updated) FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id), 0));
CREATE INDEX annotations_by_time ON annotations (tenant_id, organization_id, document_id, created_at DESC, annotation_id DESC);
CREATE TABLE annotation_reads (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  user_id          TEXT NOT NULL,
  read_at          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, user_id)
) STRICT, WITHOUT ROWID;
`,
  postgres: `
ALTER TABLE annotations ADD COLUMN last_updated bigint NOT NULL DEFAULT 0, ADD COLUMN status_id text COLLATE "C",
  ADD COLUMN first_user_id text COLLATE "C", ADD COLUMN assigned_to text, ADD COLUMN priority text,
  ADD COLUMN target_element text;
ALTER TABLE comments ADD COLUMN tagged_user_contacts text;
UPDATE annotations AS a SET
  status_id = CASE WHEN json_typeof(a.status::json -> 'id') = 'string' THEN a.status::json ->> 'id' END,
  first_user_id = (SELECT c.from_user_id FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id
    ORDER BY c.seq LIMIT 1),
  last_updated = greatest(a.created_at, coalesce((SELECT max(c.last_updated) FROM comments c
    WHERE c.tenant_id = a.tenant_id
    AND c.organization_id = a.organization_id AND c.document_id = a.document_id AND c.annotation_id = a.annotation_id), 0));
CREATE INDEX annotations_by_time ON annotations (tenant_id, organization_id, document_id, created_at DESC, annotation_id DESC);
CREATE TABLE annotation_reads (
  tenant_id        text COLLATE "C" NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  annotation_id    text COLLATE "C" NOT NULL,
  user_id          text COLLATE "C" NOT NULL,
  read_at          bigint NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id, user_id)
);
ANALYZE annotations;
`,
};
