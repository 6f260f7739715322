// commentannotations/get's answer as JSON text (docs/api.md, "What a thread reads as"), rendered when a thread is
// written and kept with it (annotations.answer_head and answer_comments), so that a read splices stored text
// instead of reading each comment's columns and writing it (a page of 20 threads: 770 us of CPU per request with
// the join of comments; see bench/README.md). Only what depends on the reader or on profiles is left
// out: the reader's API key (a gap), and each user, as a slot that a read fills from the organization's
// profiles, so a users/update shows at once without rewriting threads. A thread's `from` is its first
// comment's author: the first slot of its comments. A member that was never set, or was cleared, is
// absent (docs/api.md, "Members shown only when set"); objects are the JSON text they were written as (key order
// included).
import type { CommentFacts, StoredThreadAnswer, ThreadHead } from '../threads.js';
import { PassingProfiles, type Profile, type UserRef } from '../users.js';
import { NO_ORGANIZATION } from '../../schemas/common.js';
import { commentJson } from './comments.js';

const json = JSON.stringify;

// Characters JSON text never holds raw (JSON.stringify escapes every control character).
/** Between the pieces of a head: where the thread's author, its comments and the reader's API key go. */
const GAP = '\u0001';
/** A user a read resolves: SLOT, then its userId, name and email as JSON text ('' for none), split by SEP, then END. */
const SLOT = '\u0002';
const END = '\u0003';
const SEP = '\u0004';

/** A user as a slot: the userId and what the writer gave for name and email. */
export function userSlot(ref: UserRef): string {
  const given = (v: string | null | undefined) => (v != null ? json(v) : '');
  return `${SLOT}${json(ref.userId)}${SEP}${given(ref.name)}${SEP}${given(ref.email)}${END}`;
}

/** `,"organizationId":...`, or nothing for a document without an organization (docs/decisions.md). */
export const organizationMember = (organizationId: string): string =>
  organizationId === NO_ORGANIZATION ? '' : `,"organizationId":${json(organizationId)}`;

/** A thread's stored head: everything but its author, its comments and the reader's API key. */
export function storedHead(t: ThreadHead, organizationId: string, documentId: string): string {
  const optional =
    (t.location !== null ? `,"location":${t.location}` : '') +
    (t.locationId !== null ? `,"locationId":${json(t.locationId)}` : '') +
    (t.context !== null ? `,"context":${t.context}` : '') +
    (t.color !== null ? `,"color":${json(t.color)}` : '') +
    (t.assignedTo ? `,"assignedTo":${userSlot(t.assignedTo)}` : '') +
    (t.priority !== null ? `,"priority":${t.priority}` : '') +
    (t.targetElement !== null ? `,"targetElement":${t.targetElement}` : '') +
    // /v2's members (docs/api.md, "Version 2"), shown when set, as every optional member is.
    (t.suggestion != null ? `,"suggestion":${t.suggestion}` : '') +
    (t.commentType != null ? `,"commentType":${json(t.commentType)}` : '') +
    (t.visibility != null ? `,"visibility":${t.visibility}` : '') +
    (t.resolvedBy != null ? `,"resolvedByUserId":${json(t.resolvedBy)}` : '') +
    (t.statusUpdatedBy != null ? `,"statusUpdatedByUserId":${json(t.statusUpdatedBy)}` : '');
  return (
    `{"annotationId":${json(t.annotationId)},"type":${json(t.kind ?? 'comment')},"from":${GAP},"comments":[${GAP}]` +
    `,"status":${t.status},"createdAt":${t.createdAt},"lastUpdated":${t.lastUpdated},` +
    `${headDocumentPiece(organizationId, documentId)}${optional}}`
  );
}

/**
 * The piece of a stored head that names its document, which a document migration rewrites in place
 * (store/document-migrations/): it holds a GAP, which JSON text never holds raw, so it occurs once.
 */
export const headDocumentPiece = (organizationId: string, documentId: string): string =>
  `"metadata":{"apiKey":${GAP}${organizationMember(organizationId)},"documentId":${json(documentId)}}`;

/** A thread's stored comments, in creation order: each one's answer with slots, joined by commas. */
export const storedComments = (comments: readonly CommentFacts[]): string =>
  comments.map((c) => commentJson(c, userSlot)).join(',');

/** A slot's userId (JSON text) as a string: most ids need no unescaping. */
const idOf = (jsonText: string): string => (jsonText.includes('\\') ? (JSON.parse(jsonText) as string) : jsonText.slice(1, -1));

type Profiles = ReadonlyMap<string, Profile | undefined>;

/**
 * The stored text with each slot replaced by what `fill` makes of its content (userId, name and email):
 * a walk with indexOf, cheaper than a replace with a function, which is called with a match array per slot.
 */
export function filled(text: string, fill: (slot: string) => string): string {
  let at = text.indexOf(SLOT);
  if (at === -1) return text;
  let out = '';
  let from = 0;
  while (at !== -1) {
    const end = text.indexOf(END, at + 1);
    // A slot never closed (no writer makes one) is left as it is, as a regular expression would.
    if (end === -1) break;
    out += text.slice(from, at) + fill(text.slice(at + 1, end));
    from = end + 1;
    at = text.indexOf(SLOT, from);
  }
  return out + text.slice(from);
}
/** The userId of each slot (JSON text), as the first group. */
const SLOT_IDS = new RegExp(`${SLOT}([^${SEP}]*)${SEP}`, 'g');

/**
 * A profile with both a name and an email shows the same whatever its slots hold: its text is made
 * once per profile held (a profile is a new object when its organization's version moves), and for
 * each slot of profiles looked up and not kept (PassingProfiles).
 */
const shownProfiles = new WeakMap<Profile, string>();

/** A slot's user as answers show it (answers/users.ts showUser): the profile's field, else the writer's, else "". */
function shownUser(slot: string, profiles: Profiles): string {
  const a = slot.indexOf(SEP);
  const id = slot.slice(0, a);
  const p = profiles.get(idOf(id));
  if (p && p.email != null && p.name != null) {
    if (profiles instanceof PassingProfiles) return `{"email":${json(p.email)},"name":${json(p.name)},"userId":${id}}`;
    let shown = shownProfiles.get(p);
    if (shown === undefined) {
      shown = `{"email":${json(p.email)},"name":${json(p.name)},"userId":${id}}`;
      shownProfiles.set(p, shown);
    }
    return shown;
  }
  const b = slot.indexOf(SEP, a + 1);
  const email = p?.email != null ? json(p.email) : b + 1 < slot.length ? slot.slice(b + 1) : '""';
  const name = p?.name != null ? json(p.name) : b > a + 1 ? slot.slice(a + 1, b) : '""';
  return `{"email":${email},"name":${name},"userId":${id}}`;
}

/** A stored thread as JSON text: its slots written by `fill`, and `key` (JSON text) as metadata's apiKey. */
function threadJson(r: StoredText, fill: (slot: string) => string, key: string): string {
  // The head's pieces around its three gaps; its tail may hold the assignee's slot.
  const h = r.head;
  const g1 = h.indexOf(GAP);
  const g2 = h.indexOf(GAP, g1 + 1);
  const g3 = h.indexOf(GAP, g2 + 1);
  const tail = h.slice(g3 + 1);
  // The thread's author is its first comment's: the first slot of its comments.
  const first = r.comments.indexOf(SLOT);
  const from = first === -1 ? 'null' : fill(r.comments.slice(first + 1, r.comments.indexOf(END, first)));
  return h.slice(0, g1) + from + h.slice(g1 + 1, g2) + filled(r.comments, fill) + h.slice(g2 + 1, g3) + key + filled(tail, fill);
}

const NO_PROFILES: Profiles = new Map();
/** metadata's apiKey member as the head holds it, up to the gap for the key. */
const API_KEY_MEMBER = '"apiKey":';
/** What a thread's JSON text holds where the head's apiKey gap was, when the key is left out. */
const NO_KEY = '\u0005';

/**
 * A stored thread as events show it (docs/events.md, "Events"): as commentannotations/get shows it, with every user
 * as its writer gave them (no profiles: an event says what was written) and metadata without the API key,
 * which an event must not carry (streams reach browsers).
 */
export function eventThreadJson(r: Pick<StoredThreadAnswer, 'head' | 'comments'>): string {
  const text = threadJson({ annotationId: '', ...r }, (slot) => shownUser(slot, NO_PROFILES), NO_KEY);
  return text.replace(`${API_KEY_MEMBER}${NO_KEY},`, '');
}

/**
 * New comments of a thread as events show them (docs/events.md, "Events"): each as comments/get shows it, users as
 * their writer gave them, with its annotationId; from their stored text (storedComments), as appended.
 */
export function eventCommentsOf(stored: string, annotationId: string): string[] {
  const comments = JSON.parse(`[${filled(stored, (slot) => shownUser(slot, NO_PROFILES))}]`) as object[];
  return comments.map((c) => JSON.stringify({ ...c, annotationId }));
}

/**
 * A page of stored threads: `users` are the users they show (walked only when profiles must be
 * loaded: an organization held whole needs no list), and `render` writes the page as JSON text for a
 * reader, or with annotationIds one entry per id asked for, null where there is none.
 */
/** What a render reads of a stored thread. */
type StoredText = Pick<StoredThreadAnswer, 'annotationId' | 'head' | 'comments'>;

export function threadPage(rows: readonly StoredText[]) {
  return {
    users: {
      *[Symbol.iterator]() {
        for (const r of rows) {
          for (const m of r.comments.matchAll(SLOT_IDS)) yield idOf(m[1]!);
          for (const m of r.head.matchAll(SLOT_IDS)) yield idOf(m[1]!);
        }
      },
    } as Iterable<string>,
    render(apiKey: string, profiles: Profiles, annotationIds: readonly string[] | null): string {
      const key = json(apiKey);
      // The users a render has shown, by slot: a page names the same few users again and again.
      const seen = new Map<string, string>();
      const fill = (slot: string) => {
        let user = seen.get(slot);
        if (user === undefined) {
          user = shownUser(slot, profiles);
          seen.set(slot, user);
        }
        return user;
      };
      const one = (r: StoredText) => threadJson(r, fill, key);
      if (!annotationIds) return `[${rows.map(one).join(',')}]`;
      const byId = new Map(rows.map((r) => [r.annotationId, r]));
      return `[${annotationIds
        .map((id) => {
          const r = byId.get(id);
          return r ? one(r) : 'null';
        })
        .join(',')}]`;
    },
  };
}
