// Where an import stopped (docs/operations.md, "Importing"): the steps done, kept in a file written whole or not
// at all (a temporary file renamed over it), so a run killed at any moment leaves the last checkpoint readable.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const FORMAT = 1;

/**
 * The most often the file is written: a rewrite of the whole list at every step cost more than a tenth of a
 * local import's time (a rename per document step). A run stopped between two saves redoes the steps of the
 * last second at most, whose writes are no-ops for what is there already.
 */
const SAVE_EVERY_MS = 1000;

export interface CheckpointState {
  format: number;
  /** The source and the tenant here it was written for: another pair starts over rather than skip wrongly. */
  from: string;
  tenantId: string;
  /** Keys of the steps done (an organization's users, a document's threads...). */
  done: string[];
  /** Records written so far, by kind, for the progress line. */
  counts: Record<string, number>;
}

export class Checkpoint {
  private readonly done: Set<string>;
  private savedAt = 0;
  readonly counts: Record<string, number>;

  private constructor(
    private readonly file: string | null,
    private readonly state: CheckpointState,
  ) {
    this.done = new Set(state.done);
    this.counts = state.counts;
  }

  /** The file's checkpoint when it is for this source and tenant, else a new one; null file: kept in memory only. */
  static open(file: string | null, from: string, tenantId: string): { checkpoint: Checkpoint; resumed: boolean } {
    if (file !== null && existsSync(file)) {
      const read = JSON.parse(readFileSync(file, 'utf8')) as CheckpointState;
      if (read.format === FORMAT && read.from === from && read.tenantId === tenantId)
        return { checkpoint: new Checkpoint(file, { ...read, counts: read.counts ?? {} }), resumed: true };
    }
    return { checkpoint: new Checkpoint(file, { format: FORMAT, from, tenantId, done: [], counts: {} }), resumed: false };
  }

  has(step: string): boolean {
    return this.done.has(step);
  }

  /** Marks a step done (its writes have committed, so a resumed run skips it), saved at most every second. */
  complete(step: string): void {
    this.done.add(step);
    if (Date.now() - this.savedAt >= SAVE_EVERY_MS) this.save();
  }

  count(kind: string, n: number): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }

  /** Writes the file now (the last steps too): at the end of a run, and by complete() when a second has passed. */
  save(): void {
    this.savedAt = Date.now();
    if (this.file === null) return;
    const state: CheckpointState = { ...this.state, done: [...this.done], counts: this.counts };
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state)}\n`);
    renameSync(temporary, this.file);
  }
}
