import { renderStoredThreads } from '../comments/backfill.js';
import type { Migration } from './migration.js';

export const storedThreadAnswers: Migration = {
  version: 9,
  name: 'threads keep their answers',
  // commentannotations/get splices each thread's answer from text rendered when it was written
  // (answers/annotations.ts): its head (answer_head) and its comments' answers in creation order
  // (answer_comments, appended to by comments/add), instead of reading every comment of the page.
  // Unread counts compare a read mark with the thread's newest comment by anyone but the reader,
  // which the thread now keeps (comments/latest.ts), instead of walking its comments. Threads written
  // before get both here, rendered by the same code.
  // SQLite: the table becomes a rowid table, answers last. A WITHOUT ROWID table is a B-tree of keys,
  // whose rows spill to overflow pages past about 2 kB of a 8 kB page, so a page of 20 threads of
  // 2-3 kB read each through a chain of pages (about 200 us in a loop); a rowid table keeps up to
  // about 8 kB of a row on its page (about 55 us), and columns before the answers are read without them.
  sqlite: `
CREATE TABLE annotations_v9 (
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  document_id      TEXT NOT NULL,
  annotation_id    TEXT NOT NULL,
  location         TEXT,
  location_id      TEXT,
  context          TEXT,
  status           TEXT NOT NULL,
  created_at       INTEGER NOT NULL,
  last_updated     INTEGER NOT NULL DEFAULT 0,
  status_id        TEXT,
  first_user_id    TEXT,
  assigned_to      TEXT,
  priority         TEXT,
  target_element   TEXT,
  last_comment_at  INTEGER,
  last_comment_by  TEXT,
  last_other_at    INTEGER,
  answer_head      TEXT NOT NULL DEFAULT '',
  answer_comments  TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (tenant_id, organization_id, document_id, annotation_id)
) STRICT;
INSERT INTO annotations_v9 (tenant_id, organization_id, document_id, annotation_id, location, location_id, context, status,
  created_at, last_updated, status_id, first_user_id, assigned_to, priority, target_element)
SELECT tenant_id, organization_id, document_id, annotation_id, location, location_id, context, status,
  created_at, last_updated, status_id, first_user_id, assigned_to, priority, target_element
FROM annotations ORDER BY tenant_id, organization_id, document_id, annotation_id;
DROP TABLE annotations;
ALTER TABLE annotations_v9 RENAME TO annotations;
CREATE INDEX annotations_by_time ON annotations (tenant_id, organization_id, document_id, created_at DESC, annotation_id DESC);
`,
  postgres: `
ALTER TABLE annotations ADD COLUMN answer_head text NOT NULL DEFAULT '', ADD COLUMN answer_comments text NOT NULL DEFAULT '',
  ADD COLUMN last_comment_at bigint, ADD COLUMN last_comment_by text COLLATE "C", ADD COLUMN last_other_at bigint;
`,
  backfill: renderStoredThreads,
};
