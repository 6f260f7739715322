// One forward-only schema step: its SQLite and its PostgreSQL text side by side, and the data only the
// service's code can write. A released step never changes; a new need is a new step (index.ts lists them).
import type { Work } from '../sql.js';

export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
  /** Store code run after the DDL, in the same transaction: data that only the service's code can write. */
  backfill?: () => Work<void>;
}
