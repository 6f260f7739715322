// A document migration (docs/api.md, "Document migration"): a job that moves a document's rows to a new
// document id, in batches, claimed by one worker at a time under a lease.

/** Where a job is: made, being run (or waiting for a worker to take it over), done, or stopped for good. */
export type MigrationStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export interface MigrationRecord {
  migrationId: string;
  organizationId: string;
  documentId: string;
  newDocumentId: string;
  status: MigrationStatus;
  /** Rows moved so far. */
  moved: number;
  /** Why it failed, for a failed job. */
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A job as a worker holds it: what it moves, and the mover it is at. */
export type ClaimedMigration = {
  tenantId: string;
  migrationId: string;
  organizationId: string;
  documentId: string;
  newDocumentId: string;
  /** The index of the mover the last committed batch left it at (store/document-migrations/movers.ts). */
  step: number;
};

/** How a worker's run of a job ended. */
export type MigrationRunEnd =
  | 'completed'
  | 'failed'
  /** Another worker holds it now (its lease ran out), or the job is gone (its organization was deleted). */
  | 'lost'
  /** The worker is stopping: the job is handed back, to be taken up again where it is. */
  | 'stopped';
