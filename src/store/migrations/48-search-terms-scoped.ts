import { SEARCHED_COMMENTS, SEARCHED_NOTIFICATIONS } from './47-notification-headlines-searched.js';
import { postgresSearchWords, type SqliteSearchIndex, sqliteSearchRemade } from './44-search-index.js';
import type { Migration } from './migration.js';

/** The comments' index from this step on: terms in their organization's scope. */
export const SCOPED_COMMENTS: SqliteSearchIndex = { ...SEARCHED_COMMENTS, deleteBy: 'rowid', scoped: true };
/** The notifications' index from this step on: the headline and the body, as terms in their organization's scope. */
export const SCOPED_NOTIFICATIONS: SqliteSearchIndex = { ...SEARCHED_NOTIFICATIONS, deleteBy: 'rowid', scoped: true };

/** PostgreSQL: a table's search_words made again over its scope and text, and its index with it. */
const postgresScoped = (table: string, text: string) => `
DROP INDEX ${table}_search;
ALTER TABLE ${table} DROP COLUMN search_words;
ALTER TABLE ${table} ADD COLUMN search_words tsvector
  GENERATED ALWAYS AS (scoped_search_words(search_scope(tenant_id, organization_id), ${text})) STORED;
CREATE INDEX ${table}_search ON ${table} USING GIN (search_words);`;

export const searchTermsScoped: Migration = {
  version: 48,
  name: "every indexed word in its organization's scope, so a search reads its organization's entries only",
  // A search names its organization, yet the index kept one list per word for every tenant: a prefix (every query
  // word is one) merged every tenant's terms with that prefix, and ranking read each word's whole list, so a search
  // cost what all tenants had written (bench/README.md, "The large dataset"). Each word is now indexed with its
  // organization's scope in front, and a query's words are looked up with it (store/search/sql.ts): a search reads
  // its organization's entries and no one else's (docs/decisions.md, "Search (issue 41)").
  // SQLite: the scope is the search_scopes id (the key id's high half). The words are folded and split by
  // search_terms, a function of the process (domain/search.ts, indexTerms), and the FTS tables store them, so that a
  // row leaves by its rowid with exactly the terms it was indexed with whatever a later process's Unicode tables say.
  // The keys tables and rowid ranges stay.
  // PostgreSQL: the scope is ten hex digits of the md5 of tenant and organization, computed from the row's own
  // columns, so a row moved to another organization is indexed in its new scope by the generated column itself. Two
  // organizations sharing a scope would only share lists: every search still filters by tenant and organization.
  // The lexemes are search_words' as before, with their positions (ts_rank reads them); one the scope would take
  // past PostgreSQL's 2,047 bytes is left out, as search_words leaves out a longer one. scoped_search_words folds
  // the text itself and calls only PostgreSQL's own functions: pg_restore computes generated columns with an empty
  // search_path, where a call of search_words would not be found; search_words goes.
  sqlite: `
${sqliteSearchRemade([SCOPED_COMMENTS, SCOPED_NOTIFICATIONS])}`,
  postgres: String.raw`
CREATE FUNCTION search_scope(text, text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(md5($1 || chr(31) || $2), 10)
$$;
CREATE FUNCTION scoped_search_words(text, text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg('''' || $1 || lexeme || ''':' || array_to_string(positions, ','), ' '), '')::tsvector
  FROM unnest(${postgresSearchWords('$2')})
  WHERE octet_length(lexeme) <= 2047 - octet_length($1)
$$;
-- A query's lexemes in a scope: search/get's words are letters, digits and marks, so no lexeme holds a quote.
CREATE FUNCTION scoped_search_query(text, tsquery) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace($2::text, '''([^'']*)''', '''' || $1 || '\1''', 'g')::tsquery
$$;
${postgresScoped('comments', 'comment_text')}
${postgresScoped('notifications', String.raw`headline_text || E'\n' || body_message`)}
DROP FUNCTION search_words(text);
`,
};
