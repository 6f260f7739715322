// notifications/get's answer as JSON text, written from stored rows (SPEC 7's shape, byte for byte what
// JSON.stringify gave of the objects built before). Whatever does not depend on the reader is rendered
// once, when the notification is written, into its `answer` column: the text of the answer with gaps
// for what a read fills in, the action user (profiles change), the template data where it names users
// (likewise), and the reader's API key. A read splices the pieces; nothing is parsed unless template
// data names users. Measured on a page of 10: building objects and maps per read, then
// JSON.stringify, cost about 200 us more; each column a row returns costs about 0.3 us.
import type { Profile, Recipient, StoredNotification, UserRef } from '../store/store.js';
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

/** The stored answer of a notification: five pieces, with the reader's parts left out between them. */
export function storedNotificationAnswer(n: NotificationAnswerSource): string {
  return [
    `{"id":${json(n.notificationId)},"notificationSource":"custom","notificationSourceData":${n.sourceData}`,
    // actionUser goes here
    `,"displayBodyMessage":${json(n.bodyMessage)},"displayHeadlineMessageTemplate":${json(n.headlineTemplate)}` +
      ',"displayHeadlineMessageTemplateData":',
    n.headlineData,
    // metadata's apiKey and organizationId go here
    `${n.documentId !== null ? `,"documentId":${json(n.documentId)}` : ''}` +
      `${n.locationId !== null ? `,"locationId":${json(n.locationId)}` : ''}}`,
    `${recipientMaps(n.recipients)},"timestamp":${json(n.timestamp)}}`,
  ].join(GAP);
}

/** The stored answer of a new notification: every recipient unread. */
export function newNotificationAnswer(
  n: Omit<NotificationAnswerSource, 'recipients' | 'headlineData' | 'sourceData'> & {
    headlineData: Record<string, unknown>;
    sourceData: Record<string, unknown>;
    recipients: readonly Recipient[];
  },
): string {
  return storedNotificationAnswer({
    ...n,
    headlineData: json(n.headlineData),
    sourceData: json(n.sourceData),
    recipients: n.recipients.map((r) => ({ ...r, unread: true })),
  });
}

/** The pieces of a stored answer; [2] is the template data as stored. */
const piecesOf = (answer: string): string[] => answer.split(GAP);

/** SPEC 7: a template value that is an object with a string userId is a user object. */
function asUserObject(value: unknown): (Record<string, unknown> & { userId: string }) | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const userId = (value as { userId?: unknown }).userId;
  return typeof userId === 'string' ? (value as Record<string, unknown> & { userId: string }) : null;
}

/**
 * Whether stored template data may name a user. Text without the member name "userId" cannot hold an
 * object with that member (JSON.stringify writes it exactly so), and is answered as it is.
 */
const mayNameUsers = (headlineData: string): boolean => headlineData.includes('"userId"');

/** The template data of a stored answer, as it was written. */
export const storedTemplateData = (n: StoredNotification): string => piecesOf(n.answer)[2]!;

/** The users that a notification's template data names (found without parsing for most). */
export function usersNamedBy(n: StoredNotification): string[] {
  const headlineData = storedTemplateData(n);
  if (!mayNameUsers(headlineData)) return [];
  const ids: string[] = [];
  for (const value of Object.values(JSON.parse(headlineData) as Record<string, unknown>)) {
    const user = asUserObject(value);
    if (user) ids.push(user.userId);
  }
  return ids;
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function templateDataJson(headlineData: string, profiles: ReadonlyMap<string, Profile | undefined>): string {
  if (!mayNameUsers(headlineData)) return headlineData;
  // Object.fromEntries: every key, "__proto__" too, becomes an ordinary own property.
  const shown = Object.fromEntries(
    Object.entries(JSON.parse(headlineData) as Record<string, unknown>).map(([key, value]) => {
      const user = asUserObject(value);
      if (!user) return [key, value];
      const ref: UserRef = { userId: user.userId, name: text(user.name), email: text(user.email) };
      return [key, { ...user, ...showUser(ref, profiles.get(user.userId)) }];
    }),
  );
  return json(shown);
}

/**
 * A page of notifications as JSON text. The reader's parts (metadata's apiKey and organization) are
 * made once. The action user's profile is the one joined into its row; `profiles` resolves the users
 * that template data names.
 */
export function notificationsJson(
  reader: { apiKey: string },
  organizationId: string,
  page: readonly StoredNotification[],
  profiles: ReadonlyMap<string, Profile | undefined>,
): string {
  const metadataHead = `,"metadata":{"apiKey":${json(reader.apiKey)},"organizationId":${json(organizationId)}`;
  let out = '[';
  for (let i = 0; i < page.length; i++) {
    const n = page[i]!;
    const [head, afterUser, headlineData, metadataTail, tail] = piecesOf(n.answer);
    if (i > 0) out += ',';
    out += `${head},"actionUser":${userJson(n.actionUser, n.actionUserProfile)}${afterUser}`;
    out += `${templateDataJson(headlineData!, profiles)}${metadataHead}${metadataTail}${tail}`;
  }
  return `${out}]`;
}
