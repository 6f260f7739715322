// Who is mailed of a notification, and to which address (docs/api.md, "Email"; docs/decisions.md, "Email (issue 40)"):
// the rules alone, with no storage, so they read as the documentation does.
import type { SettingValue } from './notifications.js';
import { HEADLINES } from './fan-out.js';

/**
 * An address we send to: ASCII, `local@domain`, nothing else. The local part is 1..64 of the RFC 5322 "atext"
 * characters and dots (no dot first, last or twice in a row; no quoted forms); the domain is two or more DNS labels
 * (letters, digits, hyphens inside, 1..63 each) ending in a top-level label of letters; 254 characters at most. No
 * spaces, quotes, brackets, commas or line breaks, so an address can never carry a second recipient or a header.
 */
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isMailAddress(address: unknown): address is string {
  if (typeof address !== 'string' || address.length > 254) return false;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  if (!LOCAL.test(local) || labels.length < 2) return false;
  if (!labels.every((l) => LABEL.test(l))) return false;
  return /^[A-Za-z]{2,63}$/.test(labels[labels.length - 1]!);
}

/** What a drafted row says of its notification for its recipient. */
export interface MailReason {
  /** It concerns the recipient (the inbox's MINE rule): a mention, a reply, or a notification that lists them. */
  concerns: boolean;
  /** A mention: sent without waiting for the digest window when MARGINALIA_EMAIL_MENTIONS_AT_ONCE is on. */
  mention: boolean;
}

/**
 * A notification's reason for one recipient, from what the notification says of itself. A comment notification
 * concerns its recipient unless it tells a document member of a comment (the member headline, which the inbox gives
 * only to ALL); a notification of notifications/add concerns the users it lists; an organization-wide one concerns
 * nobody in particular (`listed` false): its members are mailed only with ALL.
 */
export function mailReason(source: string, headlineTemplate: string, listed: boolean): MailReason {
  if (!listed) return { concerns: false, mention: false };
  if (source !== 'comment') return { concerns: true, mention: false };
  return { concerns: headlineTemplate !== HEADLINES.member, mention: headlineTemplate === HEADLINES.mention };
}

/** Whether a recipient whose email setting (for the document, else the organization's, else MINE) is `setting` is mailed. */
export function wantsMail(setting: SettingValue, reason: Pick<MailReason, 'concerns'>): boolean {
  return setting === 'ALL' || (setting === 'MINE' && reason.concerns);
}

/**
 * A headline template (`{actionUser} mentioned you`) with its data filled in, as text: a member that is a user
 * object shows its name (else its userId), any other value its text; an unknown placeholder is `unfilled`'s answer,
 * by default itself as written.
 */
export function headlineText(
  template: string,
  data: Record<string, unknown>,
  names: ReadonlyMap<string, string>,
  unfilled: (placeholder: string) => string = (placeholder) => placeholder,
): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, key: string) => {
    const value = data[key];
    if (value == null) return unfilled(whole);
    if (typeof value === 'object') {
      const user = value as { userId?: unknown; name?: unknown };
      const userId = typeof user.userId === 'string' ? user.userId : null;
      const name = (userId !== null ? names.get(userId) : undefined) ?? (typeof user.name === 'string' ? user.name : null);
      return name || userId || whole;
    }
    return String(value);
  });
}
