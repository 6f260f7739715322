// The events of document writes (events/drafts.ts): each as organizations/documents/get shows it.
import { shownDocument } from '../../domain/answers/objects.js';
import { CHUNK, chunks, draft, json, once } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import type { Work } from '../sql.js';
import { page as documentsPage } from './documents.js';

/** Each document named, as organizations/documents/get shows it now. */
export function* documentsWritten(
  type: 'document.add' | 'document.update',
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
): Work<EventDraft[]> {
  const events: EventDraft[] = [];
  for (const chunk of chunks(once(ids))) {
    const query = { organizationId, documentIds: chunk, folder: undefined, after: null, limit: CHUNK };
    const read = new Map((yield* documentsPage(tenantId, query)).map((d) => [d.documentId, d]));
    for (const id of chunk) {
      const d = read.get(id);
      if (d) events.push(draft(type, organizationId, id, json(shownDocument(d))));
    }
  }
  return events;
}

export const documentsDeleted = (organizationId: string, ids: Iterable<string>): EventDraft[] =>
  [...ids].map((documentId) => draft('document.delete', organizationId, documentId, json({ documentId })));
