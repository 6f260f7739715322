// comments/get's answer as JSON text, written straight from the stored comments (the shape of docs/api.md
// "What a thread reads as", byte for byte what JSON.stringify gave of the objects built before): no object per
// comment, no second walk by a serializer. Each user a comment shows (its author, each tagged contact) is written
// by the caller's `user`: resolved against the organization's profiles for comments/get (services/profiles.ts),
// or as a slot that a read fills, for the answers threads keep (answers/thread-answers.ts).
import type { CommentFacts, StoredComment, TaggedContact } from '../threads.js';
import type { UserRef } from '../users.js';
import { userJson } from './users.js';

const json = JSON.stringify;

/** Writes a user as answers show it (JSON text, or a slot a read fills). */
export type UserWriter = (ref: UserRef) => string;

/** A comment's tags as stored (JSON text of TaggedContact[]), or none. */
export const tagsOf = (c: CommentFacts): TaggedContact[] | null =>
  c.taggedUserContacts === null ? null : (JSON.parse(c.taggedUserContacts) as TaggedContact[]);

/** Every user a comment shows: its author and the contacts it tags. */
export function usersOf(c: CommentFacts): string[] {
  const tags = tagsOf(c);
  return tags ? [c.from.userId, ...tags.flatMap((t) => (t.contact ? [t.contact.userId] : []))] : [c.from.userId];
}

function tagsJson(tags: TaggedContact[], user: UserWriter): string {
  const one = (t: TaggedContact) =>
    `{"userId":${json(t.userId)}${t.text != null ? `,"text":${json(t.text)}` : ''}` +
    `${t.contact ? `,"contact":${user(t.contact)}` : ''}}`;
  return `[${tags.map(one).join(',')}]`;
}

/** A comment's answer; its author is the first user it writes (thread answers rely on that). */
export function commentJson(c: CommentFacts, user: UserWriter): string {
  const tags = tagsOf(c);
  return (
    `{"commentId":${c.commentId},"commentHtml":${json(c.html)},"commentText":${json(c.text)}` +
    `,"from":${user(c.from)},"lastUpdated":"${new Date(c.lastUpdated).toISOString()}"` +
    `,"createdAt":${json(c.createdAt)},"status":${json(c.status)},"type":${json(c.type)}` +
    `${tags ? `,"taggedUserContacts":${tagsJson(tags, user)}` : ''}` +
    // /v2's members (docs/api.md, "Version 2"), shown when set, as JSON text kept as written.
    `${c.context != null ? `,"context":${c.context}` : ''}${c.attachments != null ? `,"attachments":${c.attachments}` : ''}` +
    `${c.agent != null ? `,"agent":${c.agent}` : ''}}`
  );
}

/** A thread's comments in order; with commentIds, one entry per id asked for, null where there is none. */
export function commentsJson(stored: readonly StoredComment[], commentIds: readonly number[] | null, user: UserWriter): string {
  if (!commentIds) return `[${stored.map((c) => commentJson(c, user)).join(',')}]`;
  const byId = new Map(stored.map((c) => [c.commentId, c]));
  return `[${commentIds
    .map((id) => {
      const c = byId.get(id);
      return c ? commentJson(c, user) : 'null';
    })
    .join(',')}]`;
}

/**
 * A comment as events show it (docs/events.md, "Events"): as comments/get shows it, with its users as their writer
 * gave them (no profiles: an event says what was written), and its annotationId.
 */
export const eventCommentJson = (c: CommentFacts, annotationId: string): string =>
  `${commentJson(c, (ref) => userJson(ref, undefined)).slice(0, -1)},"annotationId":${json(annotationId)}}`;
