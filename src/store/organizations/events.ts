// The events of organization writes (events/drafts.ts): each as organizations/get shows it.
import { shownOrganization } from '../../domain/answers/objects.js';
import { CHUNK, chunks, draft, json, once } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import type { Work } from '../sql.js';
import { page as organizationsPage } from './organizations.js';

/** Each organization named, as organizations/get shows it now. */
export function* organizationsWritten(
  type: 'organization.add' | 'organization.update',
  tenantId: string,
  ids: readonly string[],
): Work<EventDraft[]> {
  const events: EventDraft[] = [];
  for (const chunk of chunks(once(ids))) {
    const read = new Map((yield* organizationsPage(tenantId, chunk, null, CHUNK)).map((o) => [o.organizationId, o]));
    for (const id of chunk) {
      const o = read.get(id);
      if (o) events.push(draft(type, id, null, json(shownOrganization(o))));
    }
  }
  return events;
}

/** organizations/delete: recorded after the deletion, under the organization (whose events are kept). */
export const organizationsDeleted = (ids: Iterable<string>): EventDraft[] =>
  [...ids].map((organizationId) => draft('organization.delete', organizationId, null, json({ organizationId })));
