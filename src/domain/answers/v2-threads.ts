// Threads and comments as /v2's pages show them (docs/api.md, "Version 2"): v1's answer (answers/annotations.ts,
// answers/comments.ts) with the members v2 adds that follow from what is stored. Users carry the fields the
// original derives from a profile (initial, lowercase name and email, photoUrl, organizationId); a thread its
// default visibility, its participants as automatic subscribers, and the search fields of its access
// context. What only the original's browser SDK records (pageInfo, sdkVersion, the UI's avatar colors and
// numbering) is not made up: docs/decisions.md, "/v2, served step by step".
import type { Profile } from '../users.js';

type Json = Record<string, unknown>;
type Profiles = ReadonlyMap<string, Profile | undefined>;

/** What a /v2 answer is written for: the organization (absent for documents without one) and its profiles. */
export interface V2Context {
  organizationId: string | undefined;
  profiles: Profiles;
  /** The internal id of a user of the organization (the keys of subscribedUsers). */
  internalUserId: (userId: string) => string;
  /** A comment's reactions as /v2 shows them (services/reactions.ts); absent: none. */
  reactions?:
    | ((at: CommentPlace, commentId: number) => { reactionAnnotationIds: string[]; reactionAnnotations: Json[] })
    | undefined;
}

/** Where a comment is, for its reactions. */
export interface CommentPlace {
  documentId: string;
  annotationId: string;
}

/** A user ({email, name, userId}) with the fields the original derives from its profile. */
export function v2User(u: Json, cx: V2Context): Json {
  const userId = String(u.userId);
  const name = typeof u.name === 'string' ? u.name : '';
  const email = typeof u.email === 'string' ? u.email : '';
  const photoUrl = cx.profiles.get(userId)?.photoUrl ?? '';
  return {
    ...u,
    ...(cx.organizationId !== undefined ? { organizationId: cx.organizationId } : {}),
    photoUrl,
    initial: (name || userId).charAt(0).toUpperCase(),
    clientUserName: name,
    name_lowercase: name.toLowerCase().replace(/\s+/g, ''),
    email_lowercase: email.toLowerCase(),
    type: 'signedIn',
    contacts: [],
    isAdmin: false,
  };
}

const isRecord = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A user as /v2 shows a reacting one: their profile's name and email, with the derived fields. */
export const v2Reactor = (userId: string, cx: V2Context): Json => {
  const p = cx.profiles.get(userId);
  return v2User({ email: p?.email ?? '', name: p?.name ?? '', userId }, cx);
};

/** A comment as /v2 shows it: its lists always present (empty when none), its users with their derived fields. */
export function v2Comment(c: Json, cx: V2Context, at?: CommentPlace): Json {
  const tags = Array.isArray(c.taggedUserContacts) ? (c.taggedUserContacts as Json[]) : [];
  return {
    ...c,
    isDraft: false,
    isCommentTextAvailable: c.isCommentTextAvailable ?? true,
    from: isRecord(c.from) ? v2User(c.from, cx) : c.from,
    to: [],
    toOrganizationUserGroup: [],
    taggedUserContacts: tags.map((t) => (isRecord(t.contact) ? { ...t, contact: v2User(t.contact, cx) } : t)),
    attachments: c.attachments ?? [],
    recorders: [],
    customList: [],
    ...((at && cx.reactions?.(at, Number(c.commentId))) ?? { reactionAnnotationIds: [], reactionAnnotations: [] }),
  };
}

/** `key:value` for each member of an access context: what the original searches contexts by. */
function accessFields(context: unknown): Json | unknown {
  if (!isRecord(context) || !isRecord(context.access)) return context;
  const fields = Object.entries(context.access).map(([k, v]) => `${k}:${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return { ...context, accessFields: fields };
}

/** A thread as /v2 shows it. */
export function v2Thread(t: Json, cx: V2Context, at?: CommentPlace): Json {
  const comments = Array.isArray(t.comments) ? (t.comments as Json[]) : [];
  // The thread's participants (its authors and the users they tag) are subscribed, as the original does.
  const subscribed: Json = {};
  const subscribe = (userId: unknown) => {
    if (typeof userId !== 'string') return;
    const key = cx.internalUserId(userId);
    if (!Object.hasOwn(subscribed, key)) {
      Object.defineProperty(subscribed, key, {
        value: { user: { userId }, type: 'auto' },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  };
  for (const c of comments) {
    if (isRecord(c.from)) subscribe(c.from.userId);
    for (const tag of Array.isArray(c.taggedUserContacts) ? (c.taggedUserContacts as Json[]) : []) subscribe(tag.userId);
  }
  return {
    ...t,
    hasDraftComments: false,
    ...(t.context !== undefined ? { context: accessFields(t.context) } : {}),
    visibilityConfig: isRecord(t.visibility) ? t.visibility : { type: 'public' },
    from: isRecord(t.from) ? v2User(t.from, cx) : t.from,
    ...(isRecord(t.assignedTo) ? { assignedTo: v2User(t.assignedTo, cx) } : {}),
    subscribedUsers: subscribed,
    unsubscribedUsers: {},
    subscribedGroups: {},
    customList: [],
    comments: comments.map((c) => v2Comment(c, cx, at)),
  };
}
