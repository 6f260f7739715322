// What every write's events are made of (docs/decisions.md, "Events of every write", lists every type
// and its data): data is the object as a read shows it, with users as their writer gave them and never
// an API key; a delete's data is its ids. Each feature makes its own events (<feature>/events.ts).
import type { EventType } from '../../schemas/event-types.js';
import type { Audience, EventDraft } from './outbox.js';

export { EVENT_TYPES, type EventType } from '../../schemas/event-types.js';

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
