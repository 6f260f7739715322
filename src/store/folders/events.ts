// The events of folder writes (events/drafts.ts): each as organizations/folders/get lists it.
import { shownFolder } from '../../domain/answers/objects.js';
import { draft, json, once } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';
import type { Work } from '../sql.js';
import { listAll as allFolders } from './folders.js';

/** Each folder named, as organizations/folders/get shows it in its flat list now. */
export function* foldersWritten(
  type: 'folder.add' | 'folder.update',
  tenantId: string,
  organizationId: string,
  ids: readonly string[],
): Work<EventDraft[]> {
  if (ids.length === 0) return [];
  const read = new Map((yield* allFolders(tenantId, organizationId)).map((f) => [f.folderId, f]));
  return once(ids).flatMap((id) => {
    const f = read.get(id);
    return f ? [draft(type, organizationId, null, json(shownFolder(f, organizationId)))] : [];
  });
}

/** folders/delete: every folder that went, the subfolders of those named included. */
export const foldersDeleted = (organizationId: string, ids: readonly string[]): EventDraft[] =>
  once(ids).map((folderId) => draft('folder.delete', organizationId, null, json({ folderId })));
