// Who may do what on a document (docs/decisions.md, "Permissions"): the one function every end-user read and
// write, verifyUserPermissions and auth/permissions/get ask. It decides from facts the store gathers in one
// statement (store/access-roles/): the document's access type, whether the user has a profile in the
// organization or is listed on the document or its folder, and the user's roles on the document, on each
// folder above it (nearest first) and on the organization. Pure: no clock of its own, no I/O.
import type { AccessType } from './organizations.js';

export type AccessRole = 'viewer' | 'editor';
export type ResourceKind = 'organization' | 'folder' | 'document';

/** What a role on a resource grants: `viewer` reads, `editor` also writes. */
export type Access = 'none' | AccessRole;

/** The role a grant gives when it names none: the pages' default. */
export const DEFAULT_ACCESS_ROLE: AccessRole = 'editor';

/** A role as held: until `expiresAt` (ms since the epoch), or for good (null). */
export interface HeldRole {
  role: AccessRole;
  expiresAt: number | null;
}

export interface AccessFacts {
  /** The document's access type (`organizationPrivate` for a document no write has described yet). */
  accessType: AccessType;
  /** The user has a profile in the document's organization. */
  member: boolean;
  /** The user is a member of the document or of its folder (users/add with a documentId or folderId). */
  listed: boolean;
  /** The user's roles: on the document, on its folders from the nearest up, on the organization. */
  roles: {
    document: HeldRole | null;
    folders: readonly (HeldRole | null)[];
    organization: HeldRole | null;
  };
}

/** A role that counts at `now`: held, and not expired (an expired role counts for nothing). */
export const live = (held: HeldRole | null, now: number): HeldRole | null =>
  held !== null && (held.expiresAt === null || held.expiresAt > now) ? held : null;

/** The live role of the nearest folder that has one (folders from the nearest up). */
function nearestFolderRole(folders: readonly (HeldRole | null)[], now: number): HeldRole | null {
  for (const f of folders) {
    const held = live(f, now);
    if (held) return held;
  }
  return null;
}

/** The role that applies at `now` (rule 1 below): the document's, else the nearest folder's, else the organization's. */
export const applyingRole = (roles: AccessFacts['roles'], now: number): HeldRole | null =>
  live(roles.document, now) ?? nearestFolderRole(roles.folders, now) ?? live(roles.organization, now);

/**
 * The user's access to the document at `now`.
 *
 * 1. The role that applies is the most specific live one: the document's, else the nearest folder's, else
 *    the organization's (a folder's role covers its subtree unless a document says otherwise).
 * 2. Whether the user may open the document at all is its access type's: `public`, anyone; `organizationPrivate`,
 *    a user with a profile in the organization or any live role there; `restricted`, a user listed on the
 *    document or its folder, or with a live role on the document or a folder above it (an organization-wide
 *    role alone does not open a restricted document).
 * 3. A user who may open it has the role that applies, or the default (`editor`) when none does.
 */
export function accessOf(facts: AccessFacts, now: number): Access {
  const document = live(facts.roles.document, now);
  const folder = nearestFolderRole(facts.roles.folders, now);
  const applies = document ?? folder ?? live(facts.roles.organization, now);
  const opens =
    facts.accessType === 'public'
      ? true
      : facts.accessType === 'restricted'
        ? facts.listed || document !== null || folder !== null
        : facts.member || applies !== null;
  if (!opens) return 'none';
  return applies?.role ?? DEFAULT_ACCESS_ROLE;
}

/** Whether an access allows what a request wants: reading needs any, writing an editor's. */
export const allows = (access: Access, want: 'read' | 'write'): boolean =>
  access === 'editor' || (access === 'viewer' && want === 'read');

/** A role given to a user on a resource of an organization (an organization's resourceId is ''). */
export interface RoleGrant {
  organizationId: string;
  userId: string;
  kind: ResourceKind;
  resourceId: string;
  role: AccessRole;
  /** When it ends (ms since the epoch); null: it does not. */
  expiresAt: number | null;
}

/** A resource a role is taken away from. */
export type RoleResource = Pick<RoleGrant, 'organizationId' | 'userId' | 'kind' | 'resourceId'>;

/** A role as auth/permissions/get reads it. */
export interface StoredRole extends HeldRole {
  userId: string;
  kind: ResourceKind;
  resourceId: string;
  /** A folder's or document's access type; null for an organization, or a resource with no row. */
  accessType: AccessType | null;
}
