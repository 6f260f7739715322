// comments/get's answer as JSON text, written straight from the stored comments (SPEC 6's shape, byte
// for byte what JSON.stringify gave of the objects built before): no object per comment, no second
// walk by a serializer. Each author is resolved against the organization's profiles (services/profiles.ts).
import type { Profiles } from '../services/profiles.js';
import type { StoredComment } from '../store/store.js';
import { userJson } from './users.js';

const json = JSON.stringify;

function commentJson(c: StoredComment, profiles: Profiles): string {
  return (
    `{"commentId":${c.commentId},"commentHtml":${json(c.html)},"commentText":${json(c.text)}` +
    `,"from":${userJson(c.from, profiles.get(c.from.userId))},"lastUpdated":"${new Date(c.lastUpdated).toISOString()}"` +
    `,"createdAt":${json(c.createdAt)},"status":${json(c.status)},"type":${json(c.type)}}`
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
