// What a store knows of its storage beyond "the database answers": writes refused because the disk
// is full or the database is read-only (until readiness's probe write gets through), and a damaged SQLite
// file (until the operator repairs it and restarts). Readiness (/readyz) and the error answers come
// from here, and the operator is told once when a fault begins and once when it ends.

/** Why the store cannot serve a request now; each maps to a 503 with its own message. */
export type UnavailableReason = 'unreachable' | 'busy' | 'storage_full' | 'read_only' | 'damaged' | 'checking';

/**
 * The check of the SQLite file for damage at start: not made (PostgreSQL, or turned off), still checking
 * on its thread, or its outcome ('failed': it could not finish, say an I/O error, and found nothing).
 */
export type CheckState = 'off' | 'checking' | 'passed' | 'damaged' | 'failed';

/** The database cannot serve this request now: the request may be retried later. */
export class StoreUnavailableError extends Error {
  readonly reason: UnavailableReason;

  constructor(message: string, options: { cause?: unknown; reason?: UnavailableReason } = {}) {
    super(message, { cause: options.cause });
    this.name = 'StoreUnavailableError';
    this.reason = options.reason ?? 'unreachable';
  }
}

/** Faults that outlast the request that met them, and so decide readiness. */
export const LASTING_FAULTS = ['storage_full', 'read_only', 'damaged'] as const;
export type LastingFault = (typeof LASTING_FAULTS)[number];

/** Told when a lasting fault begins and ends; the server logs it. */
export type FaultListener = (event: { fault: LastingFault; state: 'began' | 'ended'; cause?: unknown }) => void;

export class StorageHealth {
  private writeFault: StoreUnavailableError | null = null;
  private damage: StoreUnavailableError | null = null;

  constructor(private readonly listener?: FaultListener) {}

  /** The lasting fault in force, if any. */
  get fault(): LastingFault | null {
    return this.damage ? 'damaged' : this.writeFault ? (this.writeFault.reason as LastingFault) : null;
  }

  /** Whether writes are being refused by the storage (readiness probes with a write then). */
  get writesRefused(): boolean {
    return this.writeFault !== null;
  }

  /** The damage found, which every readiness check reports until a restart. */
  get damaged(): StoreUnavailableError | null {
    return this.damage;
  }

  /** Notes what a failed call met; returns the error to throw. */
  failed(err: unknown): unknown {
    if (!(err instanceof StoreUnavailableError)) return err;
    if (err.reason === 'damaged' && !this.damage) {
      this.damage = err;
      this.listener?.({ fault: 'damaged', state: 'began', cause: err.cause });
    } else if ((err.reason === 'storage_full' || err.reason === 'read_only') && this.writeFault?.reason !== err.reason) {
      this.writeFault = err;
      this.listener?.({ fault: err.reason, state: 'began', cause: err.cause });
    }
    return err;
  }

  /** The readiness probe's write got through: storage takes writes again. */
  wrote(): void {
    if (!this.writeFault) return;
    const fault = this.writeFault.reason as LastingFault;
    this.writeFault = null;
    this.listener?.({ fault, state: 'ended' });
  }
}
