// One recipient's digest (docs/api.md, "Email"): which of its claimed rows are mailed, and the mail they make,
// grouped by document, from the templates.
import { headlineText, isMailAddress, wantsMail } from '../domain/email.js';
import { ORGANIZATION_LEVEL, type SettingValue } from '../domain/notifications.js';
import { textFromHtml } from '../services/html.js';
import type { ClaimedDigest, DigestRow } from '../store/email/types.js';
import type { Model, Templates } from './templates.js';

/** Why rows are not mailed (kept with them as their error). */
export type SkipReason = 'deleted' | 'setting' | 'no_address' | 'email_service_off';

/** The rows a digest mails, the rows it leaves (and why), and the address. */
export interface DigestPlan {
  to: string | null;
  mailed: DigestRow[];
  skipped: { row: DigestRow; reason: SkipReason }[];
}

/**
 * Which rows go: none when the tenant's workspace email service is switched off (useEmailService false) or the
 * recipient has no address shaped like one (domain/email.ts); else each row whose notification still exists and whose
 * recipient's setting for its document (else the organization's, else MINE) wants it (ALL, or MINE when it concerns
 * them).
 */
export function planDigest(d: ClaimedDigest): DigestPlan {
  const skipAll = (reason: SkipReason): DigestPlan => ({ to: null, mailed: [], skipped: d.rows.map((row) => ({ row, reason })) });
  if (d.service !== null && d.service.enabled === false) return skipAll('email_service_off');
  const to = d.profile?.email ?? null;
  if (!isMailAddress(to)) return skipAll('no_address');
  const fallback: SettingValue = d.settings.get(ORGANIZATION_LEVEL) ?? 'MINE';
  const plan: DigestPlan = { to, mailed: [], skipped: [] };
  for (const row of d.rows) {
    if (row.notification === null) plan.skipped.push({ row, reason: 'deleted' });
    else if (!wantsMail((row.documentId !== null ? d.settings.get(row.documentId) : undefined) ?? fallback, row))
      plan.skipped.push({ row, reason: 'setting' });
    else plan.mailed.push(row);
  }
  return plan;
}

/** The sender address: the tenant's workspace `fromEmail` when it is one, else MARGINALIA_EMAIL_FROM. */
export function fromAddress(d: Pick<ClaimedDigest, 'service'>, operatorFrom: string): string {
  const own = d.service?.config.fromEmail;
  return isMailAddress(own) ? own : operatorFrom;
}

/** A notification's body as text: it may be sanitized HTML (comment notifications), whose text alone is mailed. */
const bodyText = (body: string): string => (/[<&]/.test(body) ? textFromHtml(body) : body).replace(/\s+/g, ' ').trim();

const timeText = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The model the templates render (docs/operations.md, "Email": the names a template may use). */
export function digestModel(d: ClaimedDigest, rows: readonly DigestRow[], unsubscribeUrl: string | null): Model {
  const byDocument = new Map<string | null, DigestRow[]>();
  for (const row of rows) byDocument.set(row.documentId, [...(byDocument.get(row.documentId) ?? []), row]);
  const documents = [...byDocument].map(([documentId, items]) => ({
    documentId: documentId ?? '',
    title: documentId === null ? `${d.organizationId} (organization-wide)` : items[0]!.documentName || documentId,
    items: items.map((row) => {
      const n = row.notification!;
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(n.headlineData) as Record<string, unknown>;
      } catch {}
      const names = new Map(d.names);
      if (!names.has(n.actionUserId) && n.actionUserName) names.set(n.actionUserId, n.actionUserName);
      const headline = bodyText(headlineText(n.headlineTemplate, data, names)) || 'New notification';
      return {
        notificationId: row.notificationId,
        headline,
        body: bodyText(n.body),
        time: timeText(n.timestamp),
        mention: row.mention,
      };
    }),
  }));
  return {
    recipientName: d.profile?.name || d.userId,
    userId: d.userId,
    organizationId: d.organizationId,
    count: rows.length,
    plural: rows.length !== 1,
    documents,
    unsubscribeUrl,
  };
}

/** Subject, text and HTML of a digest; the subject on one line. */
export function renderDigest(templates: Templates, model: Model): { subject: string; text: string; html: string } {
  return {
    subject: templates['digest.subject.txt'].render(model).replace(/\s+/g, ' ').trim().slice(0, 250),
    text: templates['digest.txt'].render(model),
    html: templates['digest.html'].render(model),
  };
}
