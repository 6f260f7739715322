// notifications/get's answer as JSON text, written from stored rows (the shape of docs/api.md
// "POST /v1/notifications/get", byte for byte what JSON.stringify gave of the objects built before). Whatever does
// not depend on the reader is rendered once, when the notification is written, into its `answer` column: the text
// of the answer with gaps for what a read fills in, the action user (profiles change), the template data where it
// names users (likewise), and the reader's API key. A read splices the pieces; nothing is parsed unless template
// data names users. Measured on a page of 10: building objects and maps per read, then
// JSON.stringify, cost about 200 us more; each column a row returns costs about 0.3 us.
import type { Recipient, StoredNotification } from '../notifications.js';
import type { Profile } from '../users.js';
import { showUser, userJson } from './users.js';

const json = JSON.stringify;

/** Between the pieces of a stored answer: a character JSON text never holds raw (it is always escaped). */
const GAP = '\u0001';

/** What a stored answer is rendered from: the notification as written, its recipients in order. */
export interface NotificationAnswerSource {
  notificationId: string;
  documentId: string | null;
  locationId: string | null;
  headlineTemplate: string;
  /** JSON text of the template data and of the source data, as stored. */
  headlineData: string;
  sourceData: string;
  bodyMessage: string;
  timestamp: number;
  recipients: readonly { userId: string; internalId: string; unread: boolean }[];
  /**
   * notificationSource: "custom" unless made by a comment (docs/api.md,
   * "Notifications from comments (triggerNotification)").
   */
  source?: string;
  /** /v2's members: the context as JSON text, and the resolver flag; shown when set. */
  context?: string | null;
  resolverUsed?: boolean;
}

/**
 * The notifyUsers and notifyUsersByUserId maps (every recipient with its unread flag). Object.fromEntries
 * keeps JavaScript's own key order (integer-like keys first), which is the order the answers have
 * always had, and makes "__proto__" an ordinary key.
 */
function recipientMaps(recipients: NotificationAnswerSource['recipients']): string {
  const byInternalId = json(Object.fromEntries(recipients.map((r) => [r.internalId, r.unread])));
  const byUserId = json(Object.fromEntries(recipients.map((r) => [r.userId, r.unread])));
  return `,"notifyUsers":${byInternalId},"notifyUsersByUserId":${byUserId}`;
}

/** The stored answer of a notification: its pieces, with the reader's parts left out between them. */
export function storedNotificationAnswer(n: NotificationAnswerSource): string {
  const template = storedTemplate(n.headlineData);
  return [
    `{"id":${json(n.notificationId)},"notificationSource":${json(n.source ?? 'custom')},"notificationSourceData":${n.sourceData}`,
    // actionUser goes here
    `,"displayBodyMessage":${json(n.bodyMessage)},"displayHeadlineMessageTemplate":${json(n.headlineTemplate)}` +
      ',"displayHeadlineMessageTemplateData":',
    template.text,
    // metadata's apiKey and organizationId go here
    `${n.documentId !== null ? `,"documentId":${json(n.documentId)}` : ''}` +
      `${n.locationId !== null ? `,"locationId":${json(n.locationId)}` : ''}}` +
      // /v2's members, when set: after metadata, before the piece a read lays its marks over (withReaders).
      `${n.context != null ? `,"context":${n.context}` : ''}${n.resolverUsed ? ',"isNotificationResolverUsed":true' : ''}`,
    `${recipientMaps(n.recipients)},"timestamp":${json(n.timestamp)}}`,
    template.slots,
  ].join(GAP);
}

/**
 * The piece of a stored answer (a notification's, its inbox rows' copies) that names its document, which a
 * document migration rewrites in place (store/document-migrations/): it starts with a GAP, so it occurs once.
 */
export const answerDocumentPiece = (documentId: string): string => `${GAP},"documentId":${json(documentId)}`;

/** The stored answer of a notification as a change left it: stored answers keep every recipient unread (reads lay the marks over them). */
export const answerOfSource = (n: Omit<NotificationAnswerSource, 'recipients'> & { recipients: readonly Recipient[] }): string =>
  storedNotificationAnswer({ ...n, recipients: n.recipients.map((r) => ({ ...r, unread: true })) });

/** The stored answer of a new notification: every recipient unread. */
export function newNotificationAnswer(
  n: Omit<NotificationAnswerSource, 'recipients' | 'headlineData' | 'sourceData'> & {
    headlineData: Record<string, unknown>;
    sourceData: Record<string, unknown>;
    recipients: readonly Recipient[];
  },
): string {
  return answerOfSource({ ...n, headlineData: json(n.headlineData), sourceData: json(n.sourceData) });
}

/**
 * The recipient maps and timestamp piece ([4]) with read marks laid over it: a listed reader's entry
 * turns false where it stands, and members who read an organization-wide notification follow, false
 * (docs/api.md, "Addressing and read state"). Stored answers keep every listed recipient unread, so a read mark
 * never rewrites them.
 */
function withReaders(
  piece: string,
  readers: readonly [string, string | null][],
  internalIdOf: (userId: string) => string,
): string {
  const stored = JSON.parse(`{${piece.slice(1)}`) as {
    notifyUsers: Record<string, boolean>;
    notifyUsersByUserId: Record<string, boolean>;
    timestamp: number;
  };
  // Entries, not assignment: "__proto__" is a user id like any other.
  const byInternalId = new Map(Object.entries(stored.notifyUsers));
  const byUserId = new Map(Object.entries(stored.notifyUsersByUserId));
  for (const [userId, internalId] of readers) {
    byUserId.set(userId, false);
    byInternalId.set(internalId ?? internalIdOf(userId), false);
  }
  const maps = `,"notifyUsers":${json(Object.fromEntries(byInternalId))},"notifyUsersByUserId":${json(Object.fromEntries(byUserId))}`;
  return `${maps},"timestamp":${json(stored.timestamp)}}`;
}

/** The pieces of a stored answer: [2] is the template data, [5] its user slots. */
const piecesOf = (answer: string): string[] => answer.split(GAP);

/**
 * A template value that is an object with a string userId is a user object (docs/api.md,
 * "User objects in a notification").
 */
function asUserObject(value: unknown): (Record<string, unknown> & { userId: string }) | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const userId = (value as { userId?: unknown }).userId;
  return typeof userId === 'string' ? (value as Record<string, unknown> & { userId: string }) : null;
}

/**
 * Whether template data may name a user. Text without the member name "userId" cannot hold an
 * object with that member (JSON.stringify writes it exactly so), and is stored as it is.
 */
const mayNameUsers = (headlineData: string): boolean => headlineData.includes('"userId"');

/** In stored template text, a slot: SLOT, the field (e, n or u) and the slot's number, then END. */
const SLOT = '\u0002';
const END = '\u0003';
const FIELDS = ['email', 'name', 'userId'] as const;

/**
 * Template data as stored: its text with a slot for each field a read resolves against profiles
 * (docs/api.md, "User objects in a notification": each user object shows the profile's email, name and userId,
 * after its own members), and the slots' users as JSON text, [[userId, name, email], ...] with what the writer gave
 * ("" when none named a user). A read fills the slots without parsing the template.
 */
function storedTemplate(headlineData: string): { text: string; slots: string } {
  if (!mayNameUsers(headlineData)) return { text: headlineData, slots: '' };
  const users: [string, string | null, string | null][] = [];
  const members = Object.entries(JSON.parse(headlineData) as Record<string, unknown>).map(([key, value]) => {
    const user = asUserObject(value);
    if (!user) return `${json(key)}:${json(value)}`;
    const slot = users.push([user.userId, text(user.name), text(user.email)]) - 1;
    // {...user, ...shown}: the user's own members in their order, then those of email, name and
    // userId it lacks; those three take the shown value wherever they stand.
    const order = [...Object.keys(user), ...FIELDS.filter((f) => !Object.hasOwn(user, f))];
    const shown = order.map((k) =>
      (FIELDS as readonly string[]).includes(k) ? `${json(k)}:${SLOT}${k[0]}${slot}${END}` : `${json(k)}:${json(user[k])}`,
    );
    return `${json(key)}:{${shown.join(',')}}`;
  });
  if (users.length === 0) return { text: headlineData, slots: '' };
  return { text: `{${members.join(',')}}`, slots: json(users) };
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A slot's user as stored: [userId, name, email], the last two as the writer gave them. */
type SlotUser = [string, string | null, string | null];
const NO_SLOTS: SlotUser[] = [];

/** Template data with its slots filled from profiles. */
function templateDataJson(template: string, slots: SlotUser[], profiles: ReadonlyMap<string, Profile | undefined>): string {
  if (slots.length === 0) return template;
  const users = slots.map(([userId, name, email]) => showUser({ userId, name, email }, profiles.get(userId)));
  const parts = template.split(SLOT);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const end = part.indexOf(END);
    const user = users[Number(part.slice(1, end))]!;
    const field = part[0] === 'e' ? user.email : part[0] === 'n' ? user.name : user.userId;
    out += json(field) + part.slice(end + 1);
  }
  return out;
}

/**
 * A page of notifications, each stored answer split once: `users` are the users its template data
 * shows (to load their profiles), and `render` writes the page as JSON text. The reader's parts
 * (metadata's apiKey and organization) are made once; `profiles` resolves the action users and the
 * template's users.
 */
export function pageAnswer(
  reader: { apiKey: string },
  organizationId: string,
  page: readonly StoredNotification[],
  internalIdOf: (userId: string) => string,
) {
  const rows = page.map((n) => {
    const pieces = piecesOf(n.answer);
    return { n, pieces, slots: pieces[5] ? (JSON.parse(pieces[5]) as SlotUser[]) : NO_SLOTS };
  });
  return {
    users: rows.flatMap((r) => r.slots.map(([userId]) => userId)),
    render(profiles: ReadonlyMap<string, Profile | undefined>): string {
      const metadataHead = `,"metadata":{"apiKey":${json(reader.apiKey)},"organizationId":${json(organizationId)}`;
      let out = '[';
      for (const { n, pieces, slots } of rows) {
        if (out.length > 1) out += ',';
        out += `${pieces[0]},"actionUser":${userJson(n.actionUser, profiles.get(n.actionUser.userId))}${pieces[1]}`;
        const maps = n.readers ? withReaders(pieces[4]!, n.readers, internalIdOf) : pieces[4];
        out += `${templateDataJson(pieces[2]!, slots, profiles)}${metadataHead}${pieces[3]}${maps}`;
      }
      return `${out}]`;
    },
  };
}

/**
 * A notification as events show it (docs/events.md, "Events"): as a read shows it, with the users as their writer
 * gave them (no profiles: an event says what was written) and without the reader's API key, which an event
 * must not carry (streams reach browsers).
 */
export function eventNotificationJson(n: Pick<StoredNotification, 'answer' | 'actionUser'>, organizationId: string): string {
  const pieces = piecesOf(n.answer);
  const slots = pieces[5] ? (JSON.parse(pieces[5]) as SlotUser[]) : NO_SLOTS;
  const none = new Map<string, Profile | undefined>();
  return (
    `${pieces[0]},"actionUser":${userJson(n.actionUser, undefined)}${pieces[1]}` +
    `${templateDataJson(pieces[2]!, slots, none)},"metadata":{"organizationId":${json(organizationId)}${pieces[3]}${pieces[4]}`
  );
}
