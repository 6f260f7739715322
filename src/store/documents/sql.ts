// The statements of documents as objects (docs/api.md, "Documents"), SQLite and PostgreSQL side by side.
import { deleteSome, written } from '../sql.js';
import { NEW_DOCUMENT_ACCESS } from '../workspace/sql.js';

/** The columns a document is read with, in the order documents.ts maps them. */
const COLUMNS = 'document_id, name, folder_id, access_type, disabled, created_at, updated_at';

/** One document, by its key below the tenant: the statements of other features on a document use it too. */
export const DOCUMENT = 'tenant_id = @tenantId AND organization_id = @organizationId AND document_id = @documentId';

/**
 * A write that names a document brings it into being (docs/api.md, "Documents"), at the service's time: each upsert
 * answers the row's disabled flag, so a disabled document refuses the write (documents.ts throws and
 * the transaction writes nothing). `sets` is what an existing row takes; `times` what a new one is created with.
 */
const upsert = (given: string[], givenValues: string[], sets: string, times = '@now, @now') => {
  // A new document takes the tenant's default access unless the write sets one (documents/access/update).
  const [columns, values] = given.includes('access_type')
    ? [given, givenValues]
    : [
        [...given, 'access_type'],
        [...givenValues, NEW_DOCUMENT_ACCESS],
      ];
  return `INSERT INTO documents (tenant_id, organization_id, document_id, ${columns.join(', ')}, created_at, updated_at)
   VALUES (@tenantId, @organizationId, @documentId, ${values.join(', ')}, ${times})
   ON CONFLICT (tenant_id, organization_id, document_id) DO UPDATE SET ${sets}
   RETURNING disabled`;
};

export const DOCUMENTS_SQL = {
  /**
   * documents/add: creates, with the times given (docs/api.md, "What an import keeps"), renames when a name is given,
   * and places the document in the folder when one is given (without one, an existing document stays where it is).
   */
  add: written('addDocument', (s) =>
    upsert(
      ['name', 'folder_id'],
      [`coalesce(@name${s.cast('text')}, '')`, `@folderId${s.cast('text')}`],
      `name = coalesce(@name${s.cast('text')}, documents.name),
       folder_id = coalesce(@folderId${s.cast('text')}, documents.folder_id),
       updated_at = CASE WHEN @name${s.cast('text')} IS NULL AND @folderId${s.cast('text')} IS NULL
         THEN documents.updated_at ELSE @now END`,
      '@createdAt, @updatedAt',
    ),
  ),
  /** documents/move: into the folder (null: no folder). */
  move: written('moveDocument', (s) =>
    upsert(['folder_id'], [`@folderId${s.cast('text')}`], `folder_id = @folderId${s.cast('text')}, updated_at = @now`),
  ),
  /** documents/access/update. */
  access: written('setDocumentAccess', () =>
    upsert(['access_type'], ['@accessType'], 'access_type = @accessType, updated_at = @now'),
  ),
  /**
   * documents/access/disablestate/update: the one write a disabled document takes (docs/api.md,
   * "Disabled organizations and documents").
   */
  disable: written('setDocumentDisabled', (s) =>
    upsert(['disabled'], [`@disabled${s.cast('boolean')}`], `disabled = @disabled${s.cast('boolean')}, updated_at = @now`),
  ),
  /** documents/update: renames a document that exists; answers its disabled flag, or no row. */
  rename: written(
    'renameDocument',
    (s) => `UPDATE documents SET name = coalesce(@name${s.cast('text')}, name), updated_at = @now
     WHERE ${DOCUMENT} RETURNING disabled`,
  ),
  /** documents/get: by ids and/or folder (folderMode 0: any, 1: no folder, 2: folderId), in id order, after the token's id. */
  page: written(
    'documentsPage',
    (s) => `SELECT ${COLUMNS} FROM documents
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND ${s.inList('document_id', 'ids')}
       AND (@folderMode${s.cast('int')} = 0 OR (@folderMode = 1 AND folder_id IS NULL)
         OR (@folderMode = 2 AND folder_id = @folderId${s.cast('text')}))
       AND (@after${s.cast('text')} IS NULL OR document_id > @after) AND NOT deleting
     ORDER BY document_id LIMIT @limit`,
  ),
  /**
   * documents/delete, first and alone: the document is marked deleting, and disabled, so every write
   * to it is refused while its rows go in batches (store/batches.ts); answers whether it was there.
   */
  markDeleting: written(
    'markDocumentDeleting',
    () => `UPDATE documents SET disabled = true, deleting = true WHERE ${DOCUMENT} RETURNING document_id`,
  ),
  // A batch of each of the document's tables (store/batches.ts), in the order finishDeletion deletes them.
  someThreads: deleteSome('deleteSomeThreadsOfDocument', 'annotations', DOCUMENT),
  someComments: deleteSome('deleteSomeCommentsOfDocument', 'comments', DOCUMENT),
  someThreadReads: deleteSome('deleteSomeThreadReadsOfDocument', 'annotation_reads', DOCUMENT),
  someNotificationIds: written(
    'someNotificationIdsOfDocument',
    (s) => `SELECT notification_id FROM notifications WHERE ${DOCUMENT}
     ORDER BY notification_id LIMIT @limit${s.lock('UPDATE')}`,
  ),
  someMemberships: deleteSome(
    'deleteSomeMembershipsOfDocument',
    'memberships',
    "tenant_id = @tenantId AND organization_id = @organizationId AND scope_kind = 'document' AND scope_id = @documentId",
  ),
  /** Roles on the document go with it (docs/decisions.md, "Permissions"): a document made again starts with none. */
  someRoles: deleteSome(
    'deleteSomeRolesOfDocument',
    'access_roles',
    "tenant_id = @tenantId AND organization_id = @organizationId AND resource_kind = 'document' AND resource_id = @documentId",
  ),
  someSettings: deleteSome('deleteSomeSettingsOfDocument', 'notification_settings', DOCUMENT),
  someLiveStates: deleteSome('deleteSomeLiveStatesOfDocument', 'live_states', DOCUMENT),
  somePresence: deleteSome('deleteSomePresenceOfDocument', 'presence', DOCUMENT),
  /**
   * documents/delete, last: the row goes. On PostgreSQL that locks it, so a write that inserts the
   * document's row (the upserts above) waits, then makes a new one after this commits; writes that
   * only name the document in other tables do not wait for it.
   */
  remove: written('deleteDocument', () => `DELETE FROM documents WHERE ${DOCUMENT} RETURNING document_id`),
  /** Then everything in it. The annotations' triggers move the document's version (migration 11). */
  comments: written('deleteDocumentComments', () => `DELETE FROM comments WHERE ${DOCUMENT}`),
  threadReads: written('deleteDocumentThreadReads', () => `DELETE FROM annotation_reads WHERE ${DOCUMENT}`),
  threads: written('deleteDocumentThreads', () => `DELETE FROM annotations WHERE ${DOCUMENT}`),
  notificationIds: written(
    'documentNotificationIds',
    (s) => `SELECT notification_id FROM notifications WHERE ${DOCUMENT}
     ORDER BY notification_id${s.lock('UPDATE')}`,
  ),
  memberships: written(
    'deleteDocumentMemberships',
    () => `DELETE FROM memberships WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND scope_kind = 'document' AND scope_id = @documentId`,
  ),
  roles: written(
    'deleteDocumentRoles',
    () => `DELETE FROM access_roles WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND resource_kind = 'document' AND resource_id = @documentId`,
  ),
  settings: written('deleteDocumentSettings', () => `DELETE FROM notification_settings WHERE ${DOCUMENT}`),
  liveStates: written('deleteDocumentLiveStates', () => `DELETE FROM live_states WHERE ${DOCUMENT}`),
  presence: written('deleteDocumentPresence', () => `DELETE FROM presence WHERE ${DOCUMENT}`),
  /**
   * Whether a folder exists (documents/add and move name one that must). On PostgreSQL the row is
   * locked until the write commits, so a folders/delete (which deletes its folders before it moves
   * their documents out) waits for it, or it waits for the delete and finds no folder: no document is
   * left in a folder that is gone. SQLite writes one transaction at a time.
   */
  folderExists: written(
    'folderExists',
    (s) => `SELECT 1 AS found FROM folders WHERE tenant_id = @tenantId AND organization_id = @organizationId
       AND folder_id = @folderId${s.lock('KEY SHARE')}`,
  ),
};
