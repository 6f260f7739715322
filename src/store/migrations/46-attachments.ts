import type { Migration } from './migration.js';

// The entries of a comment's attachments (JSON text) that refer to an upload here: an integer attachmentId and the
// url of our download route for it (services/attachments.ts writes every reference to an upload so). A foreign
// reference (a file stored elsewhere) has another url and is never matched.
const SQLITE_OURS = (
  column: string,
) => `SELECT CAST(json_extract(j.value, '$.attachmentId') AS INTEGER) FROM json_each(coalesce(${column}, '[]')) j
      WHERE json_type(j.value, '$.attachmentId') = 'integer'
        AND json_extract(j.value, '$.url') LIKE '%/attachments/' || json_extract(j.value, '$.attachmentId')`;
const POSTGRES_OURS = (
  column: string,
) => `SELECT (j->>'attachmentId')::bigint FROM jsonb_array_elements(coalesce(${column}, '[]')::jsonb) j
      WHERE jsonb_typeof(j) = 'object' AND j->>'attachmentId' ~ '^[0-9]{1,15}$'
        AND j->>'url' LIKE '%/attachments/' || (j->>'attachmentId')`;

const COMMENT_OF = (row: string) =>
  `tenant_id = ${row}.tenant_id AND organization_id = ${row}.organization_id AND document_id = ${row}.document_id
    AND annotation_id = ${row}.annotation_id AND comment_id = ${row}.comment_id`;
const LINK = (
  row: string,
  ours: string,
) => `UPDATE attachments SET annotation_id = ${row}.annotation_id, comment_id = ${row}.comment_id, expires_at = NULL
    WHERE tenant_id = ${row}.tenant_id AND organization_id = ${row}.organization_id AND document_id = ${row}.document_id
      AND comment_id IS NULL AND attachment_id IN (${ours})`;
const UNLINKED = (row: string, ours: string) =>
  `DELETE FROM attachments WHERE ${COMMENT_OF(row)} AND attachment_id NOT IN (${ours})`;
const MOVE = (row: string) => `UPDATE attachments SET organization_id = NEW.organization_id, document_id = NEW.document_id
    WHERE ${COMMENT_OF(row)}`;

export const attachments: Migration = {
  version: 46,
  name: 'files attached to comments, and the queue of their removals',
  // attachments: one row per upload (docs/api.md, "Attachments"), in the organization and document it was uploaded
  // to; annotation_id and comment_id are set once a comment refers to it (expires_at then NULL: an upload never
  // attached is deleted at expires_at). sha256 is NULL while the bytes are being written (a crash then leaves a row
  // that expires, never a file without a row). storage_key is made by the server (never from caller input).
  // attachment_removals: the files to remove from storage, queued by the trigger on every delete of an
  // attachments row, in the transaction of the delete, whatever deleted it (a comment, thread, document,
  // organization, erasure, expiry); the removal worker (jobs/attachment-removals.ts) carries them out after the
  // commit and retries. The triggers on comments keep the links in the same transaction as the comment's write:
  // a comment inserted or changed links the uploads its attachments refer to, a changed one lets go (deletes) those
  // it no longer refers to, a deleted one deletes its uploads, a moved one (document migration, documents/move)
  // takes them along. A deleted document's uploads that no comment took go with it.
  sqlite: `
CREATE TABLE attachments (
  tenant_id        TEXT NOT NULL,
  attachment_id    INTEGER NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT,
  comment_id       INTEGER,
  name             TEXT NOT NULL,
  mime_type        TEXT NOT NULL,
  size             INTEGER NOT NULL,
  sha256           TEXT,
  storage_key      TEXT NOT NULL UNIQUE,
  created_at       INTEGER NOT NULL,
  expires_at       INTEGER,
  PRIMARY KEY (tenant_id, attachment_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX attachments_of_document ON attachments (tenant_id, organization_id, document_id, annotation_id, comment_id);
CREATE INDEX attachments_expiring ON attachments (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE attachment_removals (
  storage_key  TEXT PRIMARY KEY,
  tenant_id    TEXT NOT NULL,
  due_at       INTEGER NOT NULL,
  attempts     INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;
CREATE INDEX attachment_removals_due ON attachment_removals (due_at);
CREATE TRIGGER attachments_delete_queues_file AFTER DELETE ON attachments BEGIN
  INSERT INTO attachment_removals (storage_key, tenant_id, due_at) VALUES (OLD.storage_key, OLD.tenant_id, 0)
    ON CONFLICT (storage_key) DO NOTHING;
END;
CREATE TRIGGER comments_insert_links_attachments AFTER INSERT ON comments WHEN NEW.attachments IS NOT NULL BEGIN
  ${LINK('NEW', SQLITE_OURS('NEW.attachments'))};
END;
CREATE TRIGGER comments_update_links_attachments AFTER UPDATE OF attachments ON comments
  WHEN NEW.attachments IS NOT OLD.attachments BEGIN
  ${UNLINKED('NEW', SQLITE_OURS('NEW.attachments'))};
  ${LINK('NEW', SQLITE_OURS('NEW.attachments'))};
END;
CREATE TRIGGER comments_move_attachments AFTER UPDATE OF organization_id, document_id ON comments
  WHEN NEW.organization_id IS NOT OLD.organization_id OR NEW.document_id IS NOT OLD.document_id BEGIN
  ${MOVE('OLD')};
END;
CREATE TRIGGER comments_delete_attachments AFTER DELETE ON comments BEGIN
  DELETE FROM attachments WHERE ${COMMENT_OF('OLD')};
END;
CREATE TRIGGER documents_delete_attachments AFTER DELETE ON documents BEGIN
  DELETE FROM attachments WHERE tenant_id = OLD.tenant_id AND organization_id = OLD.organization_id
    AND document_id = OLD.document_id AND comment_id IS NULL;
END;
`,
  postgres: `
CREATE TABLE attachments (
  tenant_id        text COLLATE "C" NOT NULL,
  attachment_id    bigint NOT NULL,
  organization_id  text COLLATE "C" NOT NULL,
  document_id      text COLLATE "C" NOT NULL,
  annotation_id    text COLLATE "C",
  comment_id       integer,
  name             text NOT NULL,
  mime_type        text NOT NULL,
  size             bigint NOT NULL,
  sha256           text,
  storage_key      text COLLATE "C" NOT NULL UNIQUE,
  created_at       bigint NOT NULL,
  expires_at       bigint,
  PRIMARY KEY (tenant_id, attachment_id)
);
CREATE INDEX attachments_of_document ON attachments (tenant_id, organization_id, document_id, annotation_id, comment_id);
CREATE INDEX attachments_expiring ON attachments (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE attachment_removals (
  storage_key  text COLLATE "C" PRIMARY KEY,
  tenant_id    text COLLATE "C" NOT NULL,
  due_at       bigint NOT NULL,
  attempts     integer NOT NULL DEFAULT 0
);
CREATE INDEX attachment_removals_due ON attachment_removals (due_at);
CREATE FUNCTION attachments_queue_files() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  INSERT INTO attachment_removals (storage_key, tenant_id, due_at) SELECT storage_key, tenant_id, 0 FROM gone
    ON CONFLICT (storage_key) DO NOTHING;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER attachments_delete_queues_files AFTER DELETE ON attachments
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION attachments_queue_files();
CREATE FUNCTION comments_link_attachments() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    ${UNLINKED('NEW', POSTGRES_OURS('NEW.attachments'))};
  END IF;
  ${LINK('NEW', POSTGRES_OURS('NEW.attachments'))};
  RETURN NULL;
END
$fn$;
CREATE TRIGGER comments_insert_links_attachments AFTER INSERT ON comments
  FOR EACH ROW WHEN (NEW.attachments IS NOT NULL) EXECUTE FUNCTION comments_link_attachments();
CREATE TRIGGER comments_update_links_attachments AFTER UPDATE OF attachments ON comments
  FOR EACH ROW WHEN (NEW.attachments IS DISTINCT FROM OLD.attachments) EXECUTE FUNCTION comments_link_attachments();
CREATE FUNCTION comments_move_attachments() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  ${MOVE('OLD')};
  RETURN NULL;
END
$fn$;
CREATE TRIGGER comments_move_attachments AFTER UPDATE OF organization_id, document_id ON comments
  FOR EACH ROW WHEN (NEW.organization_id IS DISTINCT FROM OLD.organization_id OR NEW.document_id IS DISTINCT FROM OLD.document_id)
  EXECUTE FUNCTION comments_move_attachments();
CREATE FUNCTION comments_delete_attachments() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  DELETE FROM attachments a USING gone g WHERE a.tenant_id = g.tenant_id AND a.organization_id = g.organization_id
    AND a.document_id = g.document_id AND a.annotation_id = g.annotation_id AND a.comment_id = g.comment_id;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER comments_delete_attachments AFTER DELETE ON comments
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION comments_delete_attachments();
CREATE FUNCTION documents_delete_attachments() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  DELETE FROM attachments a USING gone g WHERE a.tenant_id = g.tenant_id AND a.organization_id = g.organization_id
    AND a.document_id = g.document_id AND a.comment_id IS NULL;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER documents_delete_attachments AFTER DELETE ON documents
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION documents_delete_attachments();
`,
};
