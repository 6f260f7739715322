// The email sender (docs/operations.md, "Email"; docs/decisions.md, "Email (issue 40)"), one per serving process
// while MARGINALIA_SMTP_URL is set. Every MARGINALIA_EMAIL_POLL_MS it asks the store whether a row is due (a read:
// an idle sender takes no lock), then claims recipients with a due row, each with every pending row of theirs that
// no live claim holds (one digest mail per recipient), under a lease in this instance's name. Claims are exclusive
// (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: its one writer), so with several instances each mail is sent by one
// of them. Each digest: the rows its recipient's settings, address and workspace let go are rendered and sent;
// the others are marked skipped. A sent mail's rows are marked sent; a refused one (SMTP 4xx/5xx, a connection
// that fails) is tried again after a backoff that doubles, up to MARGINALIA_EMAIL_MAX_ATTEMPTS, then failed.
//
// At least once: rows are marked after the SMTP server took the mail, so a process killed between the two sends
// that mail again once its lease has ended (at most one duplicate per kill). On stop, mails under way get a moment
// to end and the claims left are handed back, due at once.
import { settledWithin, WakeLoop } from '../jobs/wake-loop.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Clock, systemClock } from '../clock.js';
import type { ClaimedDigest, DigestRow } from '../store/email/types.js';
import type { Store } from '../store/store.js';
import { digestModel, fromAddress, planDigest, renderDigest, type SkipReason } from './digest.js';
import type { Templates } from './templates.js';
import { type MailTransport, smtpError } from './transport.js';
import { newUnsubscribeSecret, signUnsubscribe, UNSUBSCRIBE_TOKEN_DAYS, unsubscribeUrl } from './unsubscribe.js';

export interface SenderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** What /metrics counts of the sender (http/metrics.ts). */
export interface EmailMeter {
  /** A mail: sent, refused and retried later, or failed for good; `notifications` is how many it listed. */
  mail(outcome: 'sent' | 'retrying' | 'failed', notifications: number): void;
  /** Notifications not mailed, by reason. */
  skipped(reason: SkipReason, count: number): void;
}

export interface SenderOptions {
  store: Store;
  transport: MailTransport;
  templates: Templates;
  /** MARGINALIA_EMAIL_FROM. */
  from: string;
  /** MARGINALIA_PUBLIC_URL: links to unsubscribe; null: none. */
  publicUrl: string | null;
  maxAttempts: number;
  retryMinMs: number;
  retryMaxMs: number;
  pollMs: number;
  /** How long a claim holds its rows: longer than a mail takes (MARGINALIA_EMAIL_LEASE_MS). */
  leaseMs: number;
  /** Mails under way at once in this process. */
  concurrency?: number;
  /** The most notifications one mail lists (more wait for the next). */
  mostPerMail?: number;
  drainMs?: number;
  clock?: Clock;
  log?: SenderLog;
  meter?: EmailMeter;
}

const silent: SenderLog = { info: () => {}, warn: () => {}, debug: () => {} };
const DAY_MS = 86_400_000;
/** Finished rows are kept this long (what was mailed, for an operator's question), then pruned, a batch at a time. */
export const EMAIL_ROWS_KEPT_DAYS = 7;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 1000;

const keyOf = (d: Pick<ClaimedDigest, 'tenantId' | 'organizationId' | 'userId'>) =>
  `${d.tenantId}\u0000${d.organizationId}\u0000${d.userId}`;

export class EmailSender {
  readonly instanceId = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
  private readonly clock: Clock;
  private readonly loop: WakeLoop;
  private readonly log: SenderLog;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly secrets = new Map<string, string>();
  private prunedAt = 0;

  constructor(private readonly options: SenderOptions) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? silent;
    this.loop = new WakeLoop({
      pollMs: options.pollMs,
      run: () => this.run(),
      log: this.log,
      failing: 'email: claiming mails failed; trying again',
      recovered: 'email: the store answers again; mails go on',
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
    const now = this.clock();
    if (now - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = now;
      await store.pruneEmails(now - EMAIL_ROWS_KEPT_DAYS * DAY_MS, PRUNE_BATCH);
    }
    const room = (this.options.concurrency ?? 4) - this.inFlight.size;
    if (room <= 0 || this.loop.stopped || !(await store.emailWork(now))) return;
    const claimed = await store.claimEmails(
      this.instanceId,
      now,
      now + this.options.leaseMs,
      room,
      this.options.mostPerMail ?? 100,
    );
    for (const digest of claimed) {
      const key = keyOf(digest);
      // Claimed again while this process still sends its earlier mail (a stall outlived the lease): that one finishes it.
      if (this.inFlight.has(key)) continue;
      const done = this.deliver(digest)
        .catch((err: unknown) => {
          // Not recorded: its lease runs out and the mail is made again (at least once).
          this.log.warn({ err, userId: digest.userId }, 'email: recording a mail failed');
        })
        .finally(() => {
          this.inFlight.delete(key);
          this.wake();
        });
      this.inFlight.set(key, done);
    }
    if (claimed.length === room) this.loop.runAgain();
  }

  private async deliver(d: ClaimedDigest): Promise<void> {
    const { store, meter } = this.options;
    const plan = planDigest(d);
    const byReason = new Map<SkipReason, number[]>();
    for (const { row, reason } of plan.skipped) byReason.set(reason, [...(byReason.get(reason) ?? []), row.id]);
    for (const [reason, ids] of byReason) {
      await store.finishEmails(this.instanceId, ids, { status: 'skipped', at: this.clock(), error: reason });
      meter?.skipped(reason, ids.length);
    }
    if (plan.mailed.length === 0 || plan.to === null) return;
    const link = await this.unsubscribeLink(d);
    const mail = renderDigest(this.options.templates, digestModel(d, plan.mailed, link));
    const ids = plan.mailed.map((r) => r.id);
    try {
      await this.options.transport.send({
        from: fromAddress(d, this.options.from),
        to: plan.to,
        ...mail,
        headers: link ? { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {},
      });
    } catch (err) {
      await this.refused(d, plan.mailed, smtpError(err));
      return;
    }
    await store.finishEmails(this.instanceId, ids, { status: 'sent', at: this.clock(), error: null });
    meter?.mail('sent', ids.length);
    this.log.debug({ userId: d.userId, notifications: ids.length }, 'email: digest sent');
  }

  /** A refused mail: tried again after the backoff, or failed for good after the last attempt. */
  private async refused(d: ClaimedDigest, rows: readonly DigestRow[], error: string): Promise<void> {
    const attempt = Math.max(...rows.map((r) => r.attempts)) + 1;
    const ids = rows.map((r) => r.id);
    const now = this.clock();
    if (attempt >= this.options.maxAttempts) {
      await this.options.store.finishEmails(this.instanceId, ids, { status: 'failed', at: now, error });
      this.options.meter?.mail('failed', ids.length);
      this.log.warn(
        { userId: d.userId, attempts: attempt, error },
        'email: a mail failed for good; its notifications are not mailed',
      );
      return;
    }
    const delay = Math.min(this.options.retryMaxMs, this.options.retryMinMs * 2 ** (attempt - 1));
    await this.options.store.finishEmails(this.instanceId, ids, { status: 'retrying', at: now + delay, error });
    this.options.meter?.mail('retrying', ids.length);
    this.log.info(
      { userId: d.userId, attempt, retryInMs: delay, error },
      'email: the SMTP server refused a mail; trying again later',
    );
  }

  private async unsubscribeLink(d: ClaimedDigest): Promise<string | null> {
    if (this.options.publicUrl === null) return null;
    let secret = this.secrets.get(d.tenantId);
    if (secret === undefined) {
      secret = await this.options.store.emailSecret(d.tenantId, newUnsubscribeSecret(), this.clock());
      this.secrets.set(d.tenantId, secret);
    }
    const expiresAt = this.clock() + UNSUBSCRIBE_TOKEN_DAYS * DAY_MS;
    const token = signUnsubscribe(
      { tenantId: d.tenantId, organizationId: d.organizationId, userId: d.userId, expiresAt },
      secret,
    );
    return unsubscribeUrl(this.options.publicUrl, token);
  }

  /** Mails under way now. */
  get active(): number {
    return this.inFlight.size;
  }

  /** Stops claiming; lets mails under way end for up to `drainMs`, then hands back what this instance holds. */
  async stop(): Promise<void> {
    if (this.loop.stopped) return;
    await this.loop.stop();
    await settledWithin([...this.inFlight.values()], this.options.drainMs ?? 3000);
    await Promise.resolve(this.options.store.releaseEmails(this.instanceId, this.clock())).catch((err: unknown) =>
      this.log.warn({ err }, 'email: handing back claims failed; they come back when their lease ends'),
    );
    this.options.transport.close();
  }
}
