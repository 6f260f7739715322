// comments/get's answer as JSON text, written straight from the stored comments (SPEC 6's shape, byte
// for byte what JSON.stringify gave of the objects built before): no object per comment, no second
// walk by a serializer. Each author and tagged contact is resolved against the organization's profiles
// (services/profiles.ts).
import type { Profiles } from '../services/profiles.js';
import type { StoredComment, TaggedContact } from '../store/store.js';
import { userJson } from './users.js';

const json = JSON.stringify;

/** A comment's tags as stored (JSON text of TaggedContact[]), or none. */
export const tagsOf = (c: StoredComment): TaggedContact[] | null =>
  c.taggedUserContacts === null ? null : (JSON.parse(c.taggedUserContacts) as TaggedContact[]);

/** Every user a comment shows: its author and the contacts it tags. */
export function usersOf(c: StoredComment): string[] {
  const tags = tagsOf(c);
  return tags ? [c.from.userId, ...tags.flatMap((t) => (t.contact ? [t.contact.userId] : []))] : [c.from.userId];
}

function tagsJson(tags: TaggedContact[], profiles: Profiles): string {
  const one = (t: TaggedContact) =>
    `{"userId":${json(t.userId)}${t.text != null ? `,"text":${json(t.text)}` : ''}` +
    `${t.contact ? `,"contact":${userJson(t.contact, profiles.get(t.contact.userId))}` : ''}}`;
  return `[${tags.map(one).join(',')}]`;
}

export function commentJson(c: StoredComment, profiles: Profiles): string {
  const tags = tagsOf(c);
  return (
    `{"commentId":${c.commentId},"commentHtml":${json(c.html)},"commentText":${json(c.text)}` +
    `,"from":${userJson(c.from, profiles.get(c.from.userId))},"lastUpdated":"${new Date(c.lastUpdated).toISOString()}"` +
    `,"createdAt":${json(c.createdAt)},"status":${json(c.status)},"type":${json(c.type)}` +
    `${tags ? `,"taggedUserContacts":${tagsJson(tags, profiles)}` : ''}}`
  );
}

/** A thread's comments in order; with commentIds, one entry per id asked for, null where there is none. */
export function commentsJson(stored: readonly StoredComment[], commentIds: readonly number[] | null, profiles: Profiles): string {
  if (!commentIds) return `[${stored.map((c) => commentJson(c, profiles)).join(',')}]`;
  const byId = new Map(stored.map((c) => [c.commentId, c]));
  return `[${commentIds
    .map((id) => {
      const c = byId.get(id);
      return c ? commentJson(c, profiles) : 'null';
    })
    .join(',')}]`;
}
