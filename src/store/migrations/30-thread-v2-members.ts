import type { Migration } from './migration.js';

export const threadV2Members: Migration = {
  version: 30,
  name: "threads' kind, suggestion, visibility, resolver and agent; comments' context, attachments and agent",
  // What /v2's comment pages add (docs/api.md, "Version 2"): each kept as sent (objects as their JSON text)
  // and shown when set. The agent columns copy the ids of a thread's first agent comment, which
  // commentannotations/get and delete filter on. annotations_by_update walks an organization's threads by
  // lastUpdated (/v2's commentannotations/get, newest or oldest first, across documents), and
  // annotations_by_document_update a document's.
  sqlite: `
ALTER TABLE annotations ADD COLUMN kind TEXT NOT NULL DEFAULT 'comment';
ALTER TABLE annotations ADD COLUMN suggestion TEXT;
ALTER TABLE annotations ADD COLUMN comment_type TEXT;
ALTER TABLE annotations ADD COLUMN visibility TEXT;
ALTER TABLE annotations ADD COLUMN resolved_by TEXT;
ALTER TABLE annotations ADD COLUMN status_updated_by TEXT;
ALTER TABLE annotations ADD COLUMN agent_id TEXT;
ALTER TABLE annotations ADD COLUMN agent_source TEXT;
ALTER TABLE annotations ADD COLUMN execution_id TEXT;
ALTER TABLE annotations ADD COLUMN agent_type TEXT;
ALTER TABLE annotations ADD COLUMN agent_url TEXT;
ALTER TABLE comments ADD COLUMN context TEXT;
ALTER TABLE comments ADD COLUMN attachments TEXT;
ALTER TABLE comments ADD COLUMN agent TEXT;
CREATE INDEX annotations_by_update ON annotations (tenant_id, organization_id, last_updated DESC, document_id DESC,
  annotation_id DESC);
CREATE INDEX annotations_by_document_update ON annotations (tenant_id, organization_id, document_id, last_updated DESC,
  annotation_id DESC);`,
  postgres: `
ALTER TABLE annotations ADD COLUMN kind text COLLATE "C" NOT NULL DEFAULT 'comment', ADD COLUMN suggestion text,
  ADD COLUMN comment_type text, ADD COLUMN visibility text, ADD COLUMN resolved_by text COLLATE "C",
  ADD COLUMN status_updated_by text COLLATE "C", ADD COLUMN agent_id text COLLATE "C", ADD COLUMN agent_source text COLLATE "C",
  ADD COLUMN execution_id text COLLATE "C", ADD COLUMN agent_type text COLLATE "C", ADD COLUMN agent_url text;
ALTER TABLE comments ADD COLUMN context text, ADD COLUMN attachments text, ADD COLUMN agent text;
CREATE INDEX annotations_by_update ON annotations (tenant_id, organization_id, last_updated DESC, document_id DESC,
  annotation_id DESC);
CREATE INDEX annotations_by_document_update ON annotations (tenant_id, organization_id, document_id, last_updated DESC,
  annotation_id DESC);`,
};
