// The webhook delivery worker (docs/events.md, "Webhooks"), one per serving process. Every
// MARGINALIA_WEBHOOK_POLL_MS it asks the store whether there is work (a read: an idle worker takes no lock), then:
//
// - dispatches: the events after each webhook's cursor become deliveries (its types only), in bounded
//   batches, each a transaction holding the webhook's row;
// - claims: the oldest pending delivery of each (webhook, organization) that is due, under a lease
//   in this instance's name, as many as it has room for (MARGINALIA_WEBHOOK_CONCURRENCY). Claims are
//   exclusive (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: its write transaction), so several
//   instances or workers share the work and each delivery is made by one of them; a crashed
//   instance's claims come back when their lease ends;
// - delivers: one signed POST each (send.ts), then finishes it in the store: delivered, retried later
//   on the schedule (MARGINALIA_WEBHOOK_RETRY_SCHEDULE), or failed for good, after which that
//   organization's next delivery goes on. Each attempt is logged (webhook_attempts).
//
// A finished delivery wakes the worker at once, so an organization's deliveries follow each other
// without waiting for the next poll (retention of finished deliveries and attempts: events/pruner.ts).
// On stop, deliveries under way get a moment to end; the others are aborted and their claims handed
// back, due at once.
import { settledWithin, WakeLoop } from '../jobs/wake-loop.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import type { ClaimedDelivery, DeliveryOutcome, Store, WebhookQueueKey } from '../store/store.js';
import { type Agents, makeAgents, send } from './send.js';
import { DEFAULT_DISABLE_AFTER_FAILING_HOURS, HOUR_MS, leaseMs } from './schedule.js';

/** What the worker logs through (a pino logger fits). */
export interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface WorkerOptions {
  store: Store;
  clock?: Clock;
  log?: WorkerLog;
  /** MARGINALIA_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** A 2xx must come within this (MARGINALIA_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Milliseconds before each retry (MARGINALIA_WEBHOOK_RETRY_SCHEDULE); its length is the number of retries. */
  retryScheduleMs: readonly number[];
  /** Deliveries under way at once in this process (MARGINALIA_WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** How often the store is asked for work (MARGINALIA_WEBHOOK_POLL_MS). */
  pollMs: number;
  /** How long a stopping worker lets deliveries under way end before it aborts them. */
  drainMs?: number;
  /** A webhook whose attempts fail without a success for this long is switched off (MARGINALIA_WEBHOOK_DISABLE_AFTER_FAILING_HOURS). */
  disableAfterMs?: number;
  /** What /metrics counts of the deliveries (http/metrics.ts); absent: nothing. */
  meter?: DeliveryMeter;
}

/** What the worker reports of each attempt: its outcome, and for a delivery the time since its event was dispatched. */
export interface DeliveryMeter {
  attempted(status: 'delivered' | 'retrying' | 'failed', lagSeconds: number | null): void;
}

/** Webhooks per dispatch transaction, and events read for each. */
const DISPATCH_LIMITS = { webhooks: 10, events: 200 };
/** Dispatch transactions one poll runs at most, before it lets deliveries go out. */
const DISPATCH_ROUNDS = 20;

const keyOf = (k: WebhookQueueKey): string => `${k.tenantId}\u0000${k.webhookId}\u0000${k.organizationId}`;

const silent: WorkerLog = { info: () => {}, warn: () => {}, debug: () => {} };

interface InFlight {
  delivery: ClaimedDelivery;
  controller: AbortController;
  done: Promise<void>;
}

export class WebhookWorker {
  /** The name claims are made in: unique per process and start. */
  readonly instanceId = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly clock: Clock;
  private readonly loop: WakeLoop;
  private readonly log: WorkerLog;
  private readonly agents: Agents;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly options: WorkerOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silent;
    this.agents = makeAgents(options.concurrency);
    this.loop = new WakeLoop({
      pollMs: options.pollMs,
      run: () => this.run(),
      log: this.log,
      failing: 'webhooks: dispatching or claiming deliveries failed; trying again',
      recovered: 'webhooks: the store answers again; deliveries go on',
    });
  }

  start(): this {
    this.loop.start();
    return this;
  }

  /** Looks for work now (after a finished one, or on the poll); a run under way runs once more after. */
  wake(): void {
    this.loop.wake();
  }

  private async run(): Promise<void> {
    const { store } = this.options;
    const work = await store.webhookWork(this.clock());
    if (work.behind) {
      for (let round = 0; round < DISPATCH_ROUNDS && !this.loop.stopped; round++) {
        const { made, more } = await store.dispatchWebhookEvents(this.clock(), DISPATCH_LIMITS);
        if (made > 0) this.log.debug({ deliveries: made }, 'webhooks: events dispatched');
        if (!more) break;
      }
    }
    const room = this.options.concurrency - this.inFlight.size;
    if ((work.due || work.behind) && room > 0 && !this.loop.stopped) {
      const now = this.clock();
      const claimed = await store.claimWebhookDeliveries(this.instanceId, now, now + leaseMs(this.options.timeoutMs), room);
      for (const delivery of claimed) {
        // Claimed again by this instance while its attempt is still under way (the lease ran out during
        // a stall): that attempt finishes it; a second one would run beside it, out of order.
        if (this.inFlight.has(keyOf(delivery))) continue;
        this.deliver(delivery);
      }
      // As many as there was room for: more may be due.
      if (claimed.length === room) this.loop.runAgain();
    }
  }

  private deliver(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    const key = keyOf(delivery);
    const attemptedAt = this.clock();
    const done = send(delivery, attemptedAt, {
      timeoutMs: this.options.timeoutMs,
      allowPrivate: this.options.allowPrivate,
      agents: this.agents,
      signal: controller.signal,
    })
      .then(async (result) => {
        // Aborted by stop(): its claim is handed back there, and the attempt is not counted.
        if (result.aborted) return;
        const outcome = this.outcome(delivery, attemptedAt, result);
        this.log.debug(
          {
            webhookId: delivery.webhookId,
            eventId: delivery.eventId,
            attempt: delivery.attempt,
            status: outcome.status,
            error: outcome.error,
          },
          'webhooks: delivery attempt',
        );
        if (outcome.status === 'failed')
          this.log.warn(
            { webhookId: delivery.webhookId, eventId: delivery.eventId, attempts: delivery.attempt, error: outcome.error },
            'webhooks: a delivery failed for good; the next of its organization goes on',
          );
        await this.options.store.finishWebhookDelivery(this.instanceId, delivery, outcome, {
          disableAfterMs: this.options.disableAfterMs ?? DEFAULT_DISABLE_AFTER_FAILING_HOURS * HOUR_MS,
        });
        const finishedAt = attemptedAt + result.durationMs;
        this.options.meter?.attempted(
          outcome.status,
          outcome.status === 'delivered' ? Math.max(0, finishedAt - delivery.createdAt) / 1000 : null,
        );
      })
      .catch((err: unknown) => {
        // The attempt is not recorded: its lease runs out and it is made again (at least once).
        this.log.warn({ err, webhookId: delivery.webhookId, eventId: delivery.eventId }, 'webhooks: recording an attempt failed');
      })
      .finally(() => {
        this.inFlight.delete(key);
        this.wake();
      });
    this.inFlight.set(key, { delivery, controller, done });
  }

  private outcome(
    delivery: ClaimedDelivery,
    attemptedAt: number,
    result: { ok: boolean; responseCode: number | null; error: string | null; durationMs: number },
  ): DeliveryOutcome {
    const base = { attemptedAt, responseCode: result.responseCode, error: result.error, durationMs: result.durationMs };
    if (result.ok) return { ...base, status: 'delivered', retryAt: null };
    const delay = this.options.retryScheduleMs[delivery.attempt - 1];
    if (delay === undefined) return { ...base, status: 'failed', retryAt: null };
    return { ...base, status: 'retrying', retryAt: attemptedAt + result.durationMs + delay };
  }

  /** Deliveries under way now (tests, metrics). */
  get active(): number {
    return this.inFlight.size;
  }

  /**
   * Stops claiming; lets deliveries under way end for up to `drainMs`, aborts the rest and hands
   * their claims back (due at once, for the next instance or the next start). Resolves when nothing
   * of the worker's is left running.
   */
  async stop(): Promise<void> {
    if (this.loop.stopped) return;
    await this.loop.stop();
    await settledWithin(
      [...this.inFlight.values()].map((f) => f.done),
      this.options.drainMs ?? 3000,
    );
    const left = [...this.inFlight.values()];
    if (left.length > 0) {
      for (const f of left) f.controller.abort();
      await Promise.allSettled(left.map((f) => f.done));
      try {
        await this.options.store.releaseWebhookDeliveries(
          this.instanceId,
          left.map((f) => f.delivery),
          this.clock(),
        );
      } catch (err) {
        this.log.warn({ err }, 'webhooks: handing back unfinished deliveries failed; they are taken over when their lease ends');
      }
    }
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
