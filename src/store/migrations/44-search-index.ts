import type { Migration } from './migration.js';

// The database keeps the index itself, so no write path (comments/add, update, delete, erasure, retention, document
// migration, organization deletion) can forget it (docs/decisions.md, "Search (issue 41)"). What is indexed is the
// stored text: a comment's comment_text (the writer's text, or the text of the sanitized HTML: services/html.ts),
// never its markup; a notification's body_message.

/** SQLite: one trigger set per table; the FTS5 row's rowid is the id of the row's entry in its keys table. */
const sqliteIndex = (table: string, fts: string, keys: string, keyColumns: string[], keyDecl: string, text: string) => {
  const match = (row: 'OLD' | 'NEW') => keyColumns.map((c) => `${c} = ${row}.${c}`).join(' AND ');
  const values = (row: 'OLD' | 'NEW') => keyColumns.map((c) => `${row}.${c}`).join(', ');
  const changed = [...keyColumns, text].map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
  return `
CREATE TABLE ${keys} (
  id INTEGER PRIMARY KEY,
  ${keyDecl},
  UNIQUE (${keyColumns.join(', ')})
) STRICT;
CREATE VIRTUAL TABLE ${fts} USING fts5(text, content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO ${keys} (${keyColumns.join(', ')}) SELECT ${keyColumns.join(', ')} FROM ${table};
INSERT INTO ${fts} (rowid, text)
  SELECT k.id, t.${text} FROM ${keys} k JOIN ${table} t ON ${keyColumns.map((c) => `t.${c} = k.${c}`).join(' AND ')};
CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${keys} (${keyColumns.join(', ')}) VALUES (${values('NEW')});
  INSERT INTO ${fts} (rowid, text) VALUES ((SELECT id FROM ${keys} WHERE ${match('NEW')}), NEW.${text});
END;
CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
  DELETE FROM ${fts} WHERE rowid = (SELECT id FROM ${keys} WHERE ${match('OLD')});
  DELETE FROM ${keys} WHERE ${match('OLD')};
END;
CREATE TRIGGER ${table}_search_update AFTER UPDATE ON ${table} WHEN ${changed} BEGIN
  DELETE FROM ${fts} WHERE rowid = (SELECT id FROM ${keys} WHERE ${match('OLD')});
  UPDATE ${keys} SET ${keyColumns.map((c) => `${c} = NEW.${c}`).join(', ')} WHERE ${match('OLD')};
  INSERT INTO ${fts} (rowid, text) VALUES ((SELECT id FROM ${keys} WHERE ${match('NEW')}), NEW.${text});
END;`;
};

export const searchIndex: Migration = {
  version: 44,
  name: 'the full-text search index of comments and notifications',
  // SQLite: FTS5, contentless (the text stays in its own table; snippets are cut from it: services/search.ts), with
  // contentless_delete so that a row can be taken out by its rowid alone. comments is a WITHOUT ROWID table and
  // notifications' rowids may change on VACUUM, so each table has a keys table whose INTEGER PRIMARY KEY is the FTS
  // row's rowid. unicode61 with remove_diacritics 2 folds case and accents and splits at every separator; it does not
  // segment CJK (a run of CJK letters is one token: docs/api.md, "search/get").
  sqlite:
    sqliteIndex(
      'comments',
      'comment_search',
      'comment_search_keys',
      ['tenant_id', 'organization_id', 'document_id', 'annotation_id', 'comment_id'],
      'tenant_id TEXT NOT NULL, organization_id TEXT NOT NULL, document_id TEXT NOT NULL, ' +
        'annotation_id TEXT NOT NULL, comment_id INTEGER NOT NULL',
      'comment_text',
    ) +
    sqliteIndex(
      'notifications',
      'notification_search',
      'notification_search_keys',
      ['tenant_id', 'organization_id', 'notification_id'],
      'tenant_id TEXT NOT NULL, organization_id TEXT NOT NULL, notification_id TEXT NOT NULL',
      'body_message',
    ),
  // PostgreSQL: a generated stored tsvector per table with a GIN index. search_words folds as unicode61 does without
  // any extension (unaccent needs CREATE EXTENSION, a superuser's or the database owner's): accents off by Unicode
  // decomposition, ASCII punctuation to spaces (the default parser would keep foo@bar.com or v1.2.3 as one token),
  // then the 'simple' configuration (lower case, no stemming, no stop words). Declared IMMUTABLE for the generated
  // column; it is, for a fixed Unicode version. Adding the columns rewrites both tables once.
  postgres: String.raw`
CREATE FUNCTION search_words(text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig,
    regexp_replace(regexp_replace(normalize($1, NFD), '[\u0300-\u036f]+', '', 'g'), '[!-/:-@\[-\x60{-~]+', ' ', 'g'))
$$;
ALTER TABLE comments ADD COLUMN search_words tsvector GENERATED ALWAYS AS (search_words(comment_text)) STORED;
CREATE INDEX comments_search ON comments USING GIN (search_words);
ALTER TABLE notifications ADD COLUMN search_words tsvector GENERATED ALWAYS AS (search_words(body_message)) STORED;
CREATE INDEX notifications_search ON notifications USING GIN (search_words);
`,
};
