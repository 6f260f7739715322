// Where an import stopped (docs/operations.md, "Importing"): the steps done, kept in a file written whole or not
// at all (a temporary file renamed over it), so a run killed at any moment leaves the last checkpoint readable.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const FORMAT = 1;

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

  /** Marks a step done and saves: its writes have committed, so a resumed run skips them. */
  complete(step: string): void {
    this.done.add(step);
    this.save();
  }

  count(kind: string, n: number): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }

  private save(): void {
    if (this.file === null) return;
    const state: CheckpointState = { ...this.state, done: [...this.done], counts: this.counts };
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state)}\n`);
    renameSync(temporary, this.file);
  }
}
