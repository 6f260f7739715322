import type { Migration } from './migration.js';

export const threadColors: Migration = {
  version: 25,
  name: 'threads keep a color',
  // A thread's color, kept as sent and shown in its answer (docs/decisions.md). Threads written
  // before have none, and their stored answers show none: nothing to render again.
  sqlite: 'ALTER TABLE annotations ADD COLUMN color TEXT;',
  postgres: 'ALTER TABLE annotations ADD COLUMN color text;',
};
