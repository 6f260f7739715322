// Users' roles (docs/api.md, "Permissions (/v2)"; docs/decisions.md, "Permissions"): auth/permissions/add,
// get and remove, auth/generate_signature, and the roles users/add|update `accessRole` and a v2 token's
// resources give. What a role means is domain/access.ts; here the pages' shapes and units (the pages
// give a role's end in Unix seconds, stored in ms).
import { createHmac } from 'node:crypto';
import { type Access, accessOf, applyingRole, type HeldRole, live } from '../domain/access.js';
import { ApiError, invalid } from '../errors.js';
import {
  type GenerateSignatureData,
  MAX_PERMISSION_CHECKS,
  type PermissionEntry,
  type PermissionsAddData,
  type PermissionsGetData,
  type PermissionsRemoveData,
  type UserPermissions,
} from '../schemas/permissions.js';
import type { Caller, Services } from './context.js';
import { signingSecret } from './end-user-tokens.js';
import { DEFAULT_MAX_FOLDER_DEPTH } from './folders.js';
import { grantsOf, keyOf } from './role-grants.js';

export function addPermissions(services: Services, caller: Caller, input: PermissionsAddData): Promise<void> {
  return Promise.resolve(
    services.store.grantRoles(caller.id, grantsOf(input.user.userId, input.permissions.resources), services.clock()),
  );
}

export async function removePermissions(services: Services, caller: Caller, input: PermissionsRemoveData): Promise<void> {
  await services.store.revokeRoles(
    caller.id,
    input.permissions.resources.map((r) => keyOf(input.userId, r)),
    services.clock(),
  );
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const shownRole = (held: HeldRole): PermissionEntry => ({
  accessRole: held.role,
  ...(held.expiresAt !== null ? { expiresAt: seconds(held.expiresAt) } : {}),
});

/** The NOT_FOUND the page documents when a resource named does not exist, with every user's entries. */
export const NO_RESOURCE = 'Folder or document does not exist';

/**
 * auth/permissions/get: per user, the organization role, the live roles held on folders and documents, and a
 * decision for each folder and document named (its role and access type, or why there is none). A folder or
 * document named that does not exist answers the page's NOT_FOUND, with every entry in `details`.
 */
export async function getPermissions(
  services: Services,
  caller: Caller,
  input: PermissionsGetData,
): Promise<Record<string, UserPermissions>> {
  const folderIds = [...new Set(input.folderIds ?? [])];
  const documentIds = [...new Set(input.documentIds ?? [])];
  const userIds = [...new Set(input.userIds)];
  if (userIds.length * (folderIds.length + documentIds.length) > MAX_PERMISSION_CHECKS)
    throw invalid(
      `At most ${MAX_PERMISSION_CHECKS} decisions a request: userIds times the folderIds and documentIds named. Ask in parts.`,
    );
  const now = services.clock();
  const { organizationId } = input;
  const maxDepth = services.maxFolderDepth ?? DEFAULT_MAX_FOLDER_DEPTH;
  const out = new Map<string, UserPermissions>(userIds.map((u) => [u, {}]));
  const put = (userId: string, group: keyof UserPermissions, id: string, entry: PermissionEntry) => {
    const user = out.get(userId)!;
    user[group] = Object.assign(user[group] ?? {}, { [id]: entry });
  };
  for (const r of await services.store.rolesOfUsers(caller.id, organizationId, userIds)) {
    const held = live(r, now);
    if (!held) continue;
    const group = r.kind === 'organization' ? 'organization' : r.kind === 'folder' ? 'folders' : 'documents';
    put(r.userId, group, r.kind === 'organization' ? organizationId : r.resourceId, {
      ...shownRole(held),
      ...(r.accessType !== null ? { accessType: r.accessType } : {}),
    });
  }
  let missing = false;
  for (const userId of userIds) {
    for (const [group, ids, key] of [
      ['folders', folderIds, 'folderId'],
      ['documents', documentIds, 'documentId'],
    ] as const) {
      for (const id of ids) {
        const resource = key === 'folderId' ? { folderId: id } : { documentId: id };
        const { exists, facts } = await services.store.accessFacts(caller.id, organizationId, resource, userId, maxDepth);
        const what = group === 'folders' ? 'Folder' : 'Document';
        if (!exists) {
          missing = true;
          put(userId, group, id, { error: `${what} does not exist`, errorCode: 'does_not_exist' });
          continue;
        }
        const access: Access = accessOf(facts, now);
        const role = applyingRole(facts.roles, now);
        put(
          userId,
          group,
          id,
          access === 'none'
            ? {
                error: `User does not have access to ${what.toLowerCase()}`,
                errorCode: 'permission_denied',
                accessType: facts.accessType,
              }
            : {
                accessRole: access,
                accessType: facts.accessType,
                ...(role?.expiresAt != null ? { expiresAt: seconds(role.expiresAt) } : {}),
              },
        );
      }
    }
  }
  const answer = Object.fromEntries(out);
  if (missing) throw new ApiError('NOT_FOUND', NO_RESOURCE, { details: answer });
  return answer;
}

/** The decisions as signed: each member in one order, absent ones left out (docs/decisions.md, "Permissions"). */
export function signedText(input: GenerateSignatureData): string {
  return JSON.stringify(
    input.permissions.map((p) => ({
      userId: p.userId,
      resourceId: p.resourceId,
      type: p.type,
      hasAccess: p.hasAccess,
      ...(p.accessRole != null ? { accessRole: p.accessRole } : {}),
      ...(p.expiresAt != null ? { expiresAt: p.expiresAt } : {}),
    })),
  );
}

/** auth/generate_signature: HMAC-SHA256 of the decisions under the tenant's permission key, hex. */
export async function generateSignature(
  services: Services,
  caller: Caller,
  input: GenerateSignatureData,
): Promise<{ signature: string }> {
  const key = await signingSecret(services, caller.id, 'permission-provider');
  return { signature: createHmac('sha256', key).update(signedText(input)).digest('hex') };
}
