// When webhook deliveries are tried (docs/events.md, "Webhooks"): the retry schedule and the lease of a claim. Its
// own module, so the configuration can name the default without loading the worker.

/**
 * The retry schedule of docs/events.md "Webhooks": after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; then the
 * delivery has failed.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];

/** The lease of a claim: twice the time an attempt may take and then some, so a live claim never runs out. */
export const leaseMs = (timeoutMs: number): number => 2 * timeoutMs + 5000;

/** Hours a webhook may fail every attempt, with no delivery between, before the worker switches it off: 5 days. */
export const DEFAULT_DISABLE_AFTER_FAILING_HOURS = 120;

/** Hours the secret before a rotation signs beside the new one (webhooks/secret/rotate). */
export const DEFAULT_SECRET_GRACE_HOURS = 24;

export const HOUR_MS = 3_600_000;
