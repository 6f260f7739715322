// Store code of the email outbox (docs/decisions.md, "Email (issue 40)"): rows drafted in the transaction that
// writes a notification, claimed by a sender under a lease a recipient at a time (one digest mail), then finished.
import { mailReason } from '../../domain/email.js';
import type { SettingValue } from '../../domain/notifications.js';
import { ORGANIZATION_LEVEL } from '../../domain/notifications.js';
import type { EventDraft } from '../events/outbox.js';
import { stored as storedServiceSetting } from '../service-settings/settings.js';
import { all, arrays, first, inKeyOrder, list, run, sendBatch, send, type Work } from '../sql.js';
import { EMAIL_SQL as SQL } from './sql.js';
import type { ClaimedDigest, EmailDrafting, EmailFinish } from './types.js';

/**
 * The mails a write's events call for: for each `notification.add`, a row per listed recipient, and for one
 * addressed to the organization, a row per user whose setting there is ALL. Whether each is mailed is decided
 * when it is sent (settings then, the address, the workspace's email service): drafting reads nothing.
 */
export function* fromEvents(tenantId: string, drafts: readonly EventDraft[], now: number, drafting: EmailDrafting): Work<void> {
  const rows: Record<string, unknown>[] = [];
  for (const d of drafts) {
    if (d.type !== 'notification.add' || !d.audience) continue;
    const n = JSON.parse(d.data) as { id?: unknown; notificationSource?: unknown; displayHeadlineMessageTemplate?: unknown };
    const notificationId = String(n.id);
    const source = typeof n.notificationSource === 'string' ? n.notificationSource : 'custom';
    const headline = typeof n.displayHeadlineMessageTemplate === 'string' ? n.displayHeadlineMessageTemplate : '';
    const reason = mailReason(source, headline, true);
    const nextAt = reason.mention && drafting.mentionsAtOnce ? now : now + drafting.digestMs;
    for (const userId of d.audience.users)
      rows.push({
        organizationId: d.organizationId,
        userId,
        notificationId,
        documentId: d.documentId,
        concerns: reason.concerns ? 1 : 0,
        mention: reason.mention ? 1 : 0,
        nextAt,
      });
    if (d.audience.wide)
      yield* send(SQL.insertWide, {
        tenantId,
        organizationId: d.organizationId,
        notificationId,
        documentId: d.documentId,
        now,
        nextAt: now + drafting.digestMs,
      });
  }
  yield* sendBatch(
    SQL.insertDrafts,
    { tenantId, now },
    inKeyOrder(rows, (r) => `${r.organizationId}\u0000${r.userId}`),
  );
}

/** Whether any row is due: a read. */
export function* work(now: number): Work<boolean> {
  const row = yield* first<{ due: unknown }>(SQL.work, { now });
  return Boolean(row?.due);
}

/**
 * Claims up to `recipients` recipients with a due row, each with at most `most` of its pending rows (one mail),
 * for `claimer` until `until`, and answers what their mails need: the rows and their notifications, the
 * recipient's profile and email settings, the tenant's workspace email service, the action users' names.
 */
export function* claim(claimer: string, now: number, until: number, recipients: number, most: number): Work<ClaimedDigest[]> {
  const due = yield* arrays(SQL.lockDue, { now, limit: recipients * 4 });
  const keys = new Map<string, { tenantId: string; organizationId: string; userId: string }>();
  for (const [tenantId, organizationId, userId] of due) {
    const key = `${tenantId}\u0000${organizationId}\u0000${userId}`;
    if (keys.size < recipients && !keys.has(key))
      keys.set(key, { tenantId: tenantId as string, organizationId: organizationId as string, userId: userId as string });
  }
  const claimed: ClaimedDigest[] = [];
  const services = new Map<string, ClaimedDigest['service']>();
  for (const r of keys.values()) {
    const rows = yield* all(SQL.recipientRows, { ...r, now, most });
    if (rows.length === 0) continue;
    yield* run(SQL.lease, { ids: list(rows.map((x) => Number(x.id))), claimer, until });
    const profile = yield* first<{ name: unknown; email: unknown }>(SQL.profile, r);
    const documents = [...new Set(rows.map((x) => (x.document_id as string | null) ?? ORGANIZATION_LEVEL)), ORGANIZATION_LEVEL];
    const settings = new Map<string, SettingValue>();
    for (const s of yield* all(SQL.settings, { ...r, documentIds: list(documents) }))
      settings.set(s.document_id as string, s.email as SettingValue);
    const actors = [...new Set(rows.map((x) => x.action_user_id).filter((u): u is string => typeof u === 'string'))];
    const names = new Map<string, string>();
    if (actors.length > 0)
      for (const a of yield* all(SQL.names, { tenantId: r.tenantId, organizationId: r.organizationId, userIds: list(actors) }))
        if (typeof a.name === 'string' && a.name !== '') names.set(a.user_id as string, a.name);
    if (!services.has(r.tenantId)) services.set(r.tenantId, yield* storedServiceSetting(r.tenantId, 'email'));
    claimed.push({
      ...r,
      profile: profile
        ? { name: (profile.name as string | null) ?? null, email: (profile.email as string | null) ?? null }
        : null,
      settings,
      service: services.get(r.tenantId) ?? null,
      names,
      rows: rows.map((x) => ({
        id: Number(x.id),
        notificationId: x.notification_id as string,
        documentId: (x.document_id as string | null) ?? null,
        documentName: (x.document_name as string | null) ?? null,
        concerns: Number(x.concerns) === 1,
        mention: Number(x.mention) === 1,
        attempts: Number(x.attempts),
        createdAt: Number(x.created_at),
        notification:
          x.headline_template == null
            ? null
            : {
                headlineTemplate: x.headline_template as string,
                headlineData: x.headline_data as string,
                body: x.body_message as string,
                actionUserId: x.action_user_id as string,
                actionUserName: (x.action_user_name as string | null) ?? null,
                timestamp: Number(x.timestamp),
                source: x.source as string,
              },
      })),
    });
  }
  return claimed;
}

/** Ends rows (sent, skipped, failed) or schedules their retry, while they are still `claimer`'s. */
export function* finish(claimer: string, ids: readonly number[], outcome: EmailFinish): Work<number> {
  if (ids.length === 0) return 0;
  if (outcome.status === 'retrying')
    return yield* run(SQL.retry, { ids: list(ids), claimer, at: outcome.at, error: outcome.error });
  return yield* run(SQL.finish, {
    ids: list(ids),
    claimer,
    status: outcome.status,
    at: outcome.at,
    error: outcome.error,
    counted: outcome.status === 'skipped' ? 0 : 1,
  });
}

export function* release(claimer: string, at: number): Work<number> {
  return yield* run(SQL.release, { claimer, at });
}

export function* stats(): Work<{ queued: number; oldestCreatedAt: number | null }> {
  const row = yield* first<{ queued: unknown; oldest: unknown }>(SQL.stats);
  return { queued: Number(row?.queued ?? 0), oldestCreatedAt: row?.oldest == null ? null : Number(row.oldest) };
}

export function* prune(before: number, limit: number): Work<number> {
  return yield* run(SQL.prune, { before, limit });
}

/** The tenant's unsubscribe key: `candidate` when it has none yet. */
export function* secret(tenantId: string, candidate: string, now: number): Work<string> {
  yield* run(SQL.ensureSecret, { tenantId, secret: candidate, now });
  return (yield* first<{ secret: string }>(SQL.secret, { tenantId }))!.secret;
}

export function* existingSecret(tenantId: string): Work<string | null> {
  return (yield* first<{ secret: string }>(SQL.secret, { tenantId }))?.secret ?? null;
}

/** Sets the user's email settings in the organization to NONE (its own and every document's); false: no such user. */
export function* unsubscribe(tenantId: string, organizationId: string, userId: string): Work<boolean> {
  const key = { tenantId, organizationId, userId };
  const made = yield* run(SQL.unsubscribeOrganization, key);
  if (made === 0) return false;
  yield* run(SQL.unsubscribeDocuments, key);
  return true;
}
