import type { Migration } from './migration.js';

// The database keeps the index itself, so no write path (comments/add, update, delete, erasure, retention, document
// migration, organization deletion) can forget it (docs/decisions.md, "Search (issue 41)"). What is indexed is the
// stored text: a comment's comment_text (the writer's text, or the text of the sanitized HTML: services/html.ts),
// never its markup; a notification's body_message.

/** 2^32: a scope's FTS rowids are its id times this plus its own count (see below). */
const SCOPE = 4294967296;

/** A table's index in SQLite: its FTS table, its keys table, the key columns, and the columns whose text it holds. */
export interface SqliteSearchIndex {
  table: string;
  fts: string;
  keys: string;
  keyColumns: string[];
  /** Indexed as one text, a line each (migration 47 added the notifications' headline). */
  textColumns: string[];
  /** search_scopes' column counting the table's rows in each scope. */
  next: string;
  /**
   * How a row leaves the FTS table: by its rowid alone (`contentless_delete = 1`, this migration's tables) or by the
   * FTS5 'delete' command with the text it was indexed with (migration 47's tables; docs/decisions.md, "Search").
   */
  deleteBy: 'rowid' | 'text';
  /**
   * Migration 48's tables: the FTS table holds each row's terms, search_terms(scope, text) (domain/search.ts,
   * indexTerms), words with their organization's scope in front, tokenized as they are; its rows leave by rowid, the
   * table reading the terms it stored.
   */
  scoped?: boolean;
}

/**
 * SQLite: the triggers that keep a table's index. The FTS row's rowid is the id of the row's entry in its keys table,
 * which is its organization's scope id (search_scopes) times 2^32 plus a count of that scope's own: every
 * organization's rows are one rowid range, and a search names its range, so FTS5 seeks into each word's list at the
 * range and stops at its end instead of reading every tenant's entries (store/search/sql.ts).
 */
export const sqliteSearchTriggers = (index: SqliteSearchIndex): string => {
  const { table, fts, keys, keyColumns, textColumns, next } = index;
  const match = (row: 'OLD' | 'NEW') => keyColumns.map((c) => `${c} = ${row}.${c}`).join(' AND ');
  const values = (row: 'OLD' | 'NEW') => keyColumns.map((c) => `${row}.${c}`).join(', ');
  const changed = [...keyColumns, ...textColumns].map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
  const scopeOf = (row: 'NEW') => `tenant_id = ${row}.tenant_id AND organization_id = ${row}.organization_id`;
  const removeEntry =
    index.deleteBy === 'rowid'
      ? `DELETE FROM ${fts} WHERE rowid = (SELECT id FROM ${keys} WHERE ${match('OLD')});`
      : `INSERT INTO ${fts} (${fts}, rowid, text)
    SELECT 'delete', id, ${sqliteText(textColumns, 'OLD')} FROM ${keys} WHERE ${match('OLD')};`;
  const remove = `${removeEntry}
  DELETE FROM ${keys} WHERE ${match('OLD')};`;
  const addEntry = index.scoped
    ? `INSERT INTO ${fts} (rowid, text) SELECT id, ${indexedText(index, 'NEW', 'id')} FROM ${keys} WHERE ${match('NEW')};`
    : `INSERT INTO ${fts} (rowid, text) VALUES ((SELECT id FROM ${keys} WHERE ${match('NEW')}), ${sqliteText(textColumns, 'NEW')});`;
  const add = `INSERT INTO search_scopes (tenant_id, organization_id) VALUES (NEW.tenant_id, NEW.organization_id)
    ON CONFLICT DO UPDATE SET ${next} = ${next} + 1;
  INSERT INTO ${keys} (id, ${keyColumns.join(', ')})
    VALUES ((SELECT id * ${SCOPE} + ${next} FROM search_scopes WHERE ${scopeOf('NEW')}), ${values('NEW')});
  ${addEntry}`;
  return `
CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
  ${add}
END;
CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
  ${remove}
END;
CREATE TRIGGER ${table}_search_update AFTER UPDATE ON ${table} WHEN ${changed} BEGIN
  ${remove}
  ${add}
END;`;
};

/** The indexed text of a row (`row` its alias): its text columns, a line each. */
export const sqliteText = (textColumns: string[], row: string): string =>
  textColumns.map((c) => `${row}.${c}`).join(' || char(10) || ');

/** What a row's FTS entry holds: its text, or its terms in its scope (the key id's high half) where `scoped`. */
const indexedText = (index: SqliteSearchIndex, row: string, keyId: string): string =>
  index.scoped ? `search_terms(${keyId} >> 32, ${sqliteText(index.textColumns, row)})` : sqliteText(index.textColumns, row);

/**
 * SQLite: a table's index filled from the rows there are, in bulk (its keys and FTS tables made and empty): each
 * organization's scope, the rows' keys numbered in their scope's range, and the FTS rows. Also how the benchmark's
 * dataset is indexed after its rows are written (bench/dataset.ts).
 */
export const sqliteSearchFill = (index: SqliteSearchIndex): string =>
  `${sqliteSearchKeysFill(index)}${sqliteSearchTextFill(index)}`;

/** The scopes and keys part of sqliteSearchFill (its keys table made and empty). */
export const sqliteSearchKeysFill = ({ table, keys, keyColumns, next }: SqliteSearchIndex): string => `
INSERT OR IGNORE INTO search_scopes (tenant_id, organization_id) SELECT DISTINCT tenant_id, organization_id FROM ${table};
INSERT INTO ${keys} (id, ${keyColumns.join(', ')})
  SELECT s.id * ${SCOPE} + row_number() OVER (PARTITION BY s.id ORDER BY ${keyColumns.map((c) => `t.${c}`).join(', ')}),
    ${keyColumns.map((c) => `t.${c}`).join(', ')}
  FROM ${table} t JOIN search_scopes s ON s.tenant_id = t.tenant_id AND s.organization_id = t.organization_id;
UPDATE search_scopes SET ${next} = 1 + coalesce((SELECT max(k.id) - search_scopes.id * ${SCOPE} FROM ${keys} k
  WHERE k.id BETWEEN search_scopes.id * ${SCOPE} AND search_scopes.id * ${SCOPE} + ${SCOPE - 1}), 0);`;

/** The FTS part of sqliteSearchFill: every keyed row's text (its FTS table made and empty). */
export const sqliteSearchTextFill = (index: SqliteSearchIndex): string => {
  const { table, fts, keys, keyColumns } = index;
  return `
INSERT INTO ${fts} (rowid, text)
  SELECT k.id, ${indexedText(index, 't', 'k.id')} FROM ${keys} k JOIN ${table} t ON ${keyColumns
    .map((c) => `t.${c} = k.${c}`)
    .join(' AND ')};`;
};

/**
 * SQLite: a table's FTS5 table: contentless (the text stays in the table's own rows), or, where `scoped`, holding the
 * terms, which are already folded and split, so the ascii tokenizer only splits them at the spaces between them.
 */
export const sqliteSearchTable = ({ fts, deleteBy, scoped }: SqliteSearchIndex): string =>
  scoped
    ? `
CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = "ascii tokenchars '_'");`
    : `
CREATE VIRTUAL TABLE ${fts} USING fts5(text, content = ''${deleteBy === 'rowid' ? ', contentless_delete = 1' : ''},
  tokenize = 'unicode61 remove_diacritics 2');`;

/** SQLite: a table's search triggers, dropped. */
export const dropSearchTriggers = (table: string): string =>
  ['insert', 'delete', 'update'].map((event) => `DROP TRIGGER ${table}_search_${event};`).join('\n');

/**
 * SQLite: the FTS tables of `indexes` made again as each says (migrations 47 and 48, and the tests' way back): their
 * triggers and FTS tables dropped, then made anew, filled from the rows and kept by new triggers. The keys tables stay.
 */
export const sqliteSearchRemade = (indexes: readonly SqliteSearchIndex[]): string =>
  `${indexes.map((index) => dropSearchTriggers(index.table)).join('\n')}
${indexes.map((index) => `DROP TABLE ${index.fts};`).join('\n')}${indexes
  .map((index) => sqliteSearchTable(index) + sqliteSearchTextFill(index) + sqliteSearchTriggers(index))
  .join('')}`;

/** SQLite: a table's keys and FTS tables, filled from the rows there are, and its triggers. */
const sqliteIndex = (index: SqliteSearchIndex, keyDecl: string) => `
CREATE TABLE ${index.keys} (
  id INTEGER PRIMARY KEY,
  ${keyDecl},
  UNIQUE (${index.keyColumns.join(', ')})
) STRICT;${sqliteSearchTable(index)}${sqliteSearchFill(index)}${sqliteSearchTriggers(index)}`;

/** The comments' index as this migration made it (migration 47 makes it again). */
export const COMMENT_SEARCH: SqliteSearchIndex = {
  table: 'comments',
  fts: 'comment_search',
  keys: 'comment_search_keys',
  keyColumns: ['tenant_id', 'organization_id', 'document_id', 'annotation_id', 'comment_id'],
  textColumns: ['comment_text'],
  next: 'next_comment',
  deleteBy: 'rowid',
};

/** The notifications' index as migration 44 made it; migration 47 adds the headline to its text. */
export const NOTIFICATION_SEARCH: SqliteSearchIndex = {
  table: 'notifications',
  fts: 'notification_search',
  keys: 'notification_search_keys',
  keyColumns: ['tenant_id', 'organization_id', 'notification_id'],
  textColumns: ['body_message'],
  next: 'next_notification',
  deleteBy: 'rowid',
};

/** PostgreSQL: a text's words as this migration's search_words folds them (`arg`: the text). */
export const postgresSearchWords = (arg: string): string => String.raw`to_tsvector('simple'::regconfig,
    regexp_replace(regexp_replace(normalize(${arg}, NFD), '[\u0300-\u036f]+', '', 'g'), '[!-/:-@[-\x60{-~]+', ' ', 'g'))`;

/** PostgreSQL: search_words as this migration makes it (migration 48 drops it; its tests' databases make it again). */
export const SEARCH_WORDS_FUNCTION = `
CREATE FUNCTION search_words(text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ${postgresSearchWords('$1')}
$$;`;

export const searchIndex: Migration = {
  version: 44,
  name: 'the full-text search index of comments and notifications',
  // SQLite: FTS5, contentless (the text stays in its own table; snippets are cut from it: services/search.ts), with
  // contentless_delete so that a row can be taken out by its rowid alone. comments is a WITHOUT ROWID table and
  // notifications' rowids may change on VACUUM, so each table has a keys table whose INTEGER PRIMARY KEY is the FTS
  // row's rowid, in its organization's range of rowids (search_scopes). unicode61 with remove_diacritics 2 folds
  // case and accents and splits at every separator; it does not segment CJK (a run of CJK letters is one token:
  // docs/api.md, "Search").
  sqlite:
    `
CREATE TABLE search_scopes (
  id               INTEGER PRIMARY KEY,
  tenant_id        TEXT NOT NULL,
  organization_id  TEXT NOT NULL,
  next_comment     INTEGER NOT NULL DEFAULT 1,
  next_notification INTEGER NOT NULL DEFAULT 1,
  UNIQUE (tenant_id, organization_id)
) STRICT;` +
    sqliteIndex(
      COMMENT_SEARCH,
      'tenant_id TEXT NOT NULL, organization_id TEXT NOT NULL, document_id TEXT NOT NULL, ' +
        'annotation_id TEXT NOT NULL, comment_id INTEGER NOT NULL',
    ) +
    sqliteIndex(NOTIFICATION_SEARCH, 'tenant_id TEXT NOT NULL, organization_id TEXT NOT NULL, notification_id TEXT NOT NULL') +
    // A deleted organization's rowid range goes with it (its keys went with its rows); made again on its next write.
    `
CREATE TRIGGER organizations_search_scope_delete AFTER DELETE ON organizations BEGIN
  DELETE FROM search_scopes WHERE tenant_id = OLD.tenant_id AND organization_id = OLD.organization_id;
END;`,
  // PostgreSQL: a generated stored tsvector per table with a GIN index. search_words folds as unicode61 does without
  // any extension (unaccent needs CREATE EXTENSION, a superuser's or the database owner's): accents off by Unicode
  // decomposition, ASCII punctuation to spaces (the default parser would keep foo@bar.com or v1.2.3 as one token),
  // then the 'simple' configuration (lower case, no stemming, no stop words). Declared IMMUTABLE for the generated
  // column; it is, for a fixed Unicode version. Adding the columns rewrites both tables once.
  postgres: `${SEARCH_WORDS_FUNCTION}
ALTER TABLE comments ADD COLUMN search_words tsvector GENERATED ALWAYS AS (search_words(comment_text)) STORED;
CREATE INDEX comments_search ON comments USING GIN (search_words);
ALTER TABLE notifications ADD COLUMN search_words tsvector GENERATED ALWAYS AS (search_words(body_message)) STORED;
CREATE INDEX notifications_search ON notifications USING GIN (search_words);
`,
};
