// Store code of users' roles (docs/decisions.md, "Permissions"): grants and revokes, the roles
// auth/permissions/get shows, and the facts the access check decides from (domain/access.ts).
import type { AccessFacts, HeldRole, RoleGrant, RoleResource, StoredRole } from '../../domain/access.js';
import type { AccessType } from '../../domain/organizations.js';
import { all, batch, inKeyOrder, list, type Row, type Work } from '../sql.js';
import { ACCESS_ROLES_SQL as SQL } from './sql.js';

const keyOf = (r: RoleResource) => `${r.organizationId}\u0000${r.userId}\u0000${r.kind}\u0000${r.resourceId}`;

/** Each resource once (the last named wins), in key order, as every batch writes its rows (sql.ts: inKeyOrder). */
const onceInKeyOrder = <T extends RoleResource>(items: readonly T[]): T[] =>
  inKeyOrder([...new Map(items.map((r) => [keyOf(r), r])).values()], keyOf);

/** The grants written (the last of two for one resource wins), in key order. */
export function* grant(tenantId: string, grants: readonly RoleGrant[], now: number): Work<void> {
  yield* batch(
    SQL.grant,
    { tenantId, now },
    onceInKeyOrder(grants).map((g) => ({
      organizationId: g.organizationId,
      userId: g.userId,
      kind: g.kind,
      resourceId: g.resourceId,
      role: g.role,
      expiresAt: g.expiresAt,
    })),
  );
}

/** The roles taken away; answers how many there were. */
export function* revoke(tenantId: string, resources: readonly RoleResource[]): Work<number> {
  return yield* batch(
    SQL.revoke,
    { tenantId },
    onceInKeyOrder(resources).map((r) => ({
      organizationId: r.organizationId,
      userId: r.userId,
      kind: r.kind,
      resourceId: r.resourceId,
    })),
  );
}

const held = (r: Row): HeldRole => ({
  role: r.access_role as HeldRole['role'],
  expiresAt: r.expires_at == null ? null : Number(r.expires_at),
});

/** The users' roles in the organization, expired ones too, by user and resource. */
export function* ofUsers(tenantId: string, organizationId: string, userIds: readonly string[]): Work<StoredRole[]> {
  const rows = yield* all(SQL.ofUsers, { tenantId, organizationId, userIds: list(userIds) });
  return rows.map((r) => ({
    userId: r.user_id as string,
    kind: r.resource_kind as StoredRole['kind'],
    resourceId: r.resource_id as string,
    accessType: (r.access_type as AccessType | null) ?? null,
    ...held(r),
  }));
}

/** The facts of a resource, and whether it exists (a document or folder the server has a row of). */
export interface ResourceFacts {
  exists: boolean;
  facts: AccessFacts;
}

/** What the access check needs to know of one user and one document or folder (sql.ts: facts, one statement). */
export function* facts(
  tenantId: string,
  organizationId: string,
  resource: { documentId: string } | { folderId: string },
  userId: string,
  maxDepth: number,
): Work<ResourceFacts> {
  const documentId = 'documentId' in resource ? resource.documentId : '';
  const folderId = 'folderId' in resource ? resource.folderId : null;
  const rows = yield* all(SQL.facts, { tenantId, organizationId, documentId, folderId, userId, maxDepth });
  const out: AccessFacts = {
    accessType: 'organizationPrivate',
    member: false,
    listed: false,
    roles: { document: null, folders: [], organization: null },
  };
  let exists = false;
  const folders: (HeldRole | null)[] = [];
  for (const r of rows) {
    if (r.kind === 'facts') {
      exists = r.access_role != null;
      // A document no write has described yet is organizationPrivate (docs/decisions.md, "Permissions").
      out.accessType = ((r.access_role as string | null) ?? 'organizationPrivate') as AccessType;
      out.member = Number(r.depth) === 1;
      out.listed = Number(r.expires_at) === 1;
    } else if (r.kind === 'document') out.roles.document = held(r);
    else if (r.kind === 'organization') out.roles.organization = held(r);
    else folders[Number(r.depth) - 1] = held(r);
  }
  out.roles.folders = Array.from(folders, (f) => f ?? null);
  return { exists, facts: out };
}
