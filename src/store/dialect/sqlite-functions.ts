// The SQL functions SQLite's schema calls that SQLite does not have: JavaScript functions registered with every
// connection that may write rows (the dialect's, the benchmark's and the tests' own). A connection without them
// refuses a write whose trigger calls one ("no such function"), rather than writing a row the index misses
// (docs/decisions.md, "Search (issue 41)").
import type Database from 'better-sqlite3';
import { indexTerms } from '../../domain/search.js';

export function addSqlFunctions(db: Database.Database): void {
  // search_terms(scope, text): the terms a row's text is indexed by in its organization (migration 48).
  db.function('search_terms', { deterministic: true }, (scope, text) =>
    indexTerms(scope as number | bigint, text === null ? '' : String(text)),
  );
}
