// What every write's events are made of (docs/decisions.md, "Events of every write", lists every type
// and its data): data is the object as a read shows it, with users as their writer gave them and never
// an API key; a delete's data is its ids. Each feature makes its own events (<feature>/events.ts).
import type { Audience, EventDraft } from './outbox.js';

/** Every event type a write records (docs/decisions.md, "Events of every write"). */
export const EVENT_TYPES = [
  'comment_annotation.add',
  'comment_annotation.update',
  'comment_annotation.status_change',
  'comment_annotation.delete',
  'comment_annotation.read',
  'comment.add',
  'comment.update',
  'comment.delete',
  'notification.add',
  'notification.update',
  'notification.delete',
  'notification.read',
  'notification.unread',
  'notification.config_set',
  'user.add',
  'user.update',
  'user.delete',
  'organization.add',
  'organization.update',
  'organization.delete',
  'organization.usergroup_add',
  'organization.usergroup_users_add',
  'organization.usergroup_users_delete',
  'document.add',
  'document.update',
  'document.delete',
  'folder.add',
  'folder.update',
  'folder.delete',
  'livestate.broadcast',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const json = JSON.stringify;

export const draft = (
  type: EventType,
  organizationId: string,
  documentId: string | null,
  data: string,
  audience?: Audience,
): EventDraft => (audience ? { type, organizationId, documentId, data, audience } : { type, organizationId, documentId, data });

/** How many ids one read-back statement takes (a list parameter), as the writes' own chunks. */
export const CHUNK = 1000;

export const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** Each id once, in the order first named. */
export const once = (ids: readonly string[]): string[] => [...new Set(ids)];
