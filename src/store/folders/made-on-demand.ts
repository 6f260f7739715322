// /v2's createFolder (documents/add, users/add: docs/api.md, "Version 2"): the folder a write names is made
// at the top when it does not exist, in the write's transaction, with its event.
import { emit } from '../events/emit.js';
import { first, type Work } from '../sql.js';
import { foldersWritten } from './events.js';
import { FOLDERS_SQL as SQL } from './sql.js';

/** Makes the folder at the top unless it exists; a folder made so is told as folders/add's are (folder.add). */
export function* folderMadeIfMissing(tenantId: string, organizationId: string, folderId: string, now: number): Work<void> {
  if (yield* first(SQL.insertIfMissing, { tenantId, organizationId, folderId, now }))
    yield* emit(yield* foldersWritten('folder.add', tenantId, organizationId, [folderId]));
}
