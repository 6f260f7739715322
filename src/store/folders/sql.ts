// The statements of folders (docs/api.md, "Folders"), SQLite and PostgreSQL side by side. A folder's parent is NULL
// at the top. Trees are walked in memory (folders.ts) from one read of the organization's folders, so
// no statement recurses and no list is spelled out: lists are one JSON or array parameter.
import { written } from '../sql.js';

const ORGANIZATION = 'tenant_id = @tenantId AND organization_id = @organizationId';
const FOLDER = `${ORGANIZATION} AND folder_id = @folderId`;

export const FOLDERS_SQL = {
  /**
   * Folder writes of one organization run one at a time: a move checks the tree it reads, so two
   * concurrent moves could otherwise each pass and together make a cycle. SQLite writes are serial
   * already (IMMEDIATE transactions); PostgreSQL locks the organization's row.
   */
  lockTree: written('lockFolderTree', (s) => `SELECT 1 AS locked FROM organizations WHERE ${ORGANIZATION}${s.lock('UPDATE')}`),
  /** Every folder of the organization, in id order: the tree, read once per operation. */
  all: written(
    'organizationFolders',
    () => `SELECT folder_id, name, parent_id, access_type, inherit_access, created_at, updated_at FROM folders
     WHERE ${ORGANIZATION} ORDER BY folder_id`,
  ),
  /** Every folder's parent: what a move or a delete walks. */
  parents: written('folderParents', () => `SELECT folder_id, parent_id FROM folders WHERE ${ORGANIZATION}`),
  /** folders/add's new folder, with the times given (docs/api.md, "What an import keeps") or now. */
  insert: written(
    'insertFolder',
    (s) => `INSERT INTO folders (tenant_id, organization_id, folder_id, name, parent_id, access_type, created_at, updated_at)
     VALUES (@tenantId, @organizationId, @folderId, coalesce(@name${s.cast('text')}, ''), @parentId${s.cast('text')},
       coalesce(@accessType${s.cast('text')}, 'organizationPrivate'), @createdAt, @updatedAt)`,
  ),
  /** /v2's createFolder: a folder at the top, unless one of that id exists; answers the id when it was made. */
  insertIfMissing: written(
    'insertFolderIfMissing',
    () => `INSERT INTO folders (tenant_id, organization_id, folder_id, name, parent_id, created_at, updated_at)
     VALUES (@tenantId, @organizationId, @folderId, '', NULL, @now, @now) ON CONFLICT DO NOTHING RETURNING folder_id`,
  ),
  /** Renames (null: keeps the name) and, with moves set, moves under parentId (null: the top). */
  change: written(
    'changeFolder',
    (s) => `UPDATE folders SET name = coalesce(@name${s.cast('text')}, name),
       access_type = coalesce(@accessType${s.cast('text')}, access_type),
       parent_id = CASE WHEN @moves${s.cast('boolean')} THEN @parentId${s.cast('text')} ELSE parent_id END,
       updated_at = @now
     WHERE ${FOLDER}`,
  ),
  access: written(
    'setFolderAccess',
    // null keeps either: /v2 may set the inheritance alone (folders.ts setAccess).
    (s) => `UPDATE folders SET access_type = coalesce(@accessType${s.cast('text')}, access_type),
       inherit_access = coalesce(@inherits${s.cast('boolean')}, inherit_access), updated_at = @now
     WHERE ${FOLDER} RETURNING folder_id`,
  ),
  /** folders/delete: the folders of the subtrees, one list parameter (first: see documents/sql.ts folderExists). */
  remove: written('deleteFolders', (s) => `DELETE FROM folders WHERE ${ORGANIZATION} AND ${s.inList('folder_id', 'ids')}`),
  /** Then their documents move out: they stay, in no folder. */
  unfile: written(
    'unfileDocuments',
    (s) => `UPDATE documents SET folder_id = NULL, updated_at = @now
     WHERE ${ORGANIZATION} AND ${s.inList('folder_id', 'ids')}`,
  ),
  /** Roles on a deleted folder go with it (docs/decisions.md, "Permissions"). */
  roles: written(
    'deleteFolderRoles',
    (s) => `DELETE FROM access_roles WHERE ${ORGANIZATION} AND resource_kind = 'folder'
       AND ${s.inList('resource_id', 'ids')}`,
  ),
  /** Memberships of a deleted folder go with it (as a deleted document's do). */
  memberships: written(
    'deleteFolderMemberships',
    (s) => `DELETE FROM memberships WHERE ${ORGANIZATION} AND scope_kind = 'folder'
       AND ${s.inList('scope_id', 'ids')}`,
  ),
};
