import { writeHeadlines } from '../notifications/backfill.js';
import { COMMENT_SEARCH, NOTIFICATION_SEARCH, type SqliteSearchIndex, sqliteSearchRemade } from './44-search-index.js';
import type { Migration } from './migration.js';

/** The comments' index from this step on: its FTS rows leave by the 'delete' command. */
export const SEARCHED_COMMENTS: SqliteSearchIndex = { ...COMMENT_SEARCH, deleteBy: 'text' };
/** The notifications' index from this step on: the headline as a reader sees it, then the body. */
export const SEARCHED_NOTIFICATIONS: SqliteSearchIndex = {
  ...NOTIFICATION_SEARCH,
  textColumns: ['headline_text', 'body_message'],
  deleteBy: 'text',
};

export const notificationHeadlinesSearched: Migration = {
  version: 47,
  name: "a notification's headline is searched with its body; FTS rows leave by their text",
  // headline_text is the headline as a reader sees it (domain/search.ts, headlineOf), written by the service with
  // the row; the backfill writes it for the rows there are, after this text.
  // SQLite: both FTS tables are made again without contentless_delete. Its tombstones broke under a steady mix of
  // deletes and inserts (retention beside another tenant's writes: "fts5: corruption found reading blob" of a
  // tombstone page); a contentless table's rows leave by the 'delete' command with the text they were indexed
  // with, which the triggers have in OLD (docs/decisions.md, "Search (issue 41)"). The keys tables and their rowids
  // stay. The backfill's change of headline_text re-indexes each row it writes through the update trigger.
  // PostgreSQL: the notifications' generated column is made again over both columns, and its index with it.
  sqlite: `
ALTER TABLE notifications ADD COLUMN headline_text TEXT NOT NULL DEFAULT '';
${sqliteSearchRemade([SEARCHED_COMMENTS, SEARCHED_NOTIFICATIONS])}`,
  postgres: String.raw`
ALTER TABLE notifications ADD COLUMN headline_text text NOT NULL DEFAULT '';
DROP INDEX notifications_search;
ALTER TABLE notifications DROP COLUMN search_words;
ALTER TABLE notifications ADD COLUMN search_words tsvector
  GENERATED ALWAYS AS (search_words(headline_text || E'\n' || body_message)) STORED;
CREATE INDEX notifications_search ON notifications USING GIN (search_words);
`,
  backfill: writeHeadlines,
};
