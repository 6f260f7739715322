// commentannotations/get's answer as JSON text (SPEC 10.1): each thread written from its stored row,
// its objects spliced in as the JSON text they were written as (callers get back what they sent, key
// order included), its users resolved against the organization's profiles. A member that was never
// set, or was cleared, is absent (SPEC 14.1).
import type { Profiles } from '../services/profiles.js';
import type { StoredAnnotation } from '../store/store.js';
import { commentJson, usersOf } from './comments.js';
import { userJson } from './users.js';

const json = JSON.stringify;

/** Every user the threads show: the comments' authors and contacts, and the assignees. */
export function threadUsers(threads: readonly StoredAnnotation[]): string[] {
  return threads.flatMap((t) => [...t.comments.flatMap(usersOf), ...(t.assignedTo ? [t.assignedTo.userId] : [])]);
}

function threadJson(t: StoredAnnotation, metadata: string, profiles: Profiles): string {
  const first = t.comments[0];
  const from = first ? userJson(first.from, profiles.get(first.from.userId)) : 'null';
  const optional =
    (t.location !== null ? `,"location":${t.location}` : '') +
    (t.locationId !== null ? `,"locationId":${json(t.locationId)}` : '') +
    (t.context !== null ? `,"context":${t.context}` : '') +
    (t.assignedTo ? `,"assignedTo":${userJson(t.assignedTo, profiles.get(t.assignedTo.userId))}` : '') +
    (t.priority !== null ? `,"priority":${t.priority}` : '') +
    (t.targetElement !== null ? `,"targetElement":${t.targetElement}` : '');
  return (
    `{"annotationId":${json(t.annotationId)},"type":"comment","from":${from}` +
    `,"comments":[${t.comments.map((c) => commentJson(c, profiles)).join(',')}]` +
    `,"status":${t.status},"createdAt":${t.createdAt},"lastUpdated":${t.lastUpdated},"metadata":${metadata}${optional}}`
  );
}

/**
 * The threads as read (a page), or with annotationIds one entry per id asked for, null where there is
 * none. `metadata` names the caller's key, organization and document.
 */
export function threadsJson(
  threads: readonly StoredAnnotation[],
  annotationIds: readonly string[] | null,
  metadata: { apiKey: string; organizationId: string; documentId: string },
  profiles: Profiles,
): string {
  const meta = json({ apiKey: metadata.apiKey, organizationId: metadata.organizationId, documentId: metadata.documentId });
  if (!annotationIds) return `[${threads.map((t) => threadJson(t, meta, profiles)).join(',')}]`;
  const byId = new Map(threads.map((t) => [t.annotationId, t]));
  return `[${annotationIds
    .map((id) => {
      const t = byId.get(id);
      return t ? threadJson(t, meta, profiles) : 'null';
    })
    .join(',')}]`;
}
