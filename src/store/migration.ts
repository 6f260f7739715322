/** One forward-only schema step. A released step never changes; a new need is a new step. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
