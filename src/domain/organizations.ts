/** An organization as organizations/get reads it (docs/api.md, "Organizations"); `name` is "" when never set. */
export interface OrganizationRecord {
  organizationId: string;
  name: string;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/**
 * The times organizations/add, folders/add and documents/add keep for a record they create (docs/api.md, "What an
 * import keeps"); null or absent: server time. A record that exists keeps its own.
 */
export interface GivenTimes {
  createdAt?: number | null;
  lastUpdated?: number | null;
}

/**
 * The times a new record is stored with: those given, else `now`; lastUpdated not given is the later of now and
 * createdAt. A comment's times follow the same rule (store/comments/comments.ts, commentTimes, calls this).
 */
export function createdTimes(t: GivenTimes, now: number): { createdAt: number; updatedAt: number } {
  const createdAt = t.createdAt ?? now;
  return { createdAt, updatedAt: t.lastUpdated ?? Math.max(now, createdAt) };
}

/** organizations/add and update: an organization and its new name (null: keep the name it has). */
export interface OrganizationWrite extends GivenTimes {
  organizationId: string;
  name: string | null;
}

/**
 * Who may see a document or folder; `organizationPrivate` unless set (docs/api.md,
 * "POST /v1/organizations/documents/access/update").
 */
export type AccessType = 'organizationPrivate' | 'restricted' | 'public';

/** A document as documents/get reads it (docs/api.md, "Documents"); `folderId` null: in no folder. */
export interface DocumentRecord {
  documentId: string;
  name: string;
  folderId: string | null;
  accessType: AccessType;
  disabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/** documents/add and update: a document and its new name (null: keep the name it has). */
export interface DocumentWrite extends GivenTimes {
  documentId: string;
  name: string | null;
}

/** documents/get's selection: ids (null: all) and folder (undefined: any, null: none), after an id. */
export interface DocumentQuery {
  organizationId: string;
  documentIds: string[] | null;
  folder: string | null | undefined;
  after: string | null;
  limit: number;
}

/** A folder as stored; `parentId` null: at the top. */
export interface FolderRecord {
  folderId: string;
  name: string;
  parentId: string | null;
  accessType: AccessType;
  /** Whether it takes its access from its parent (/v2's inheritFromParent), its own accessType kept beside. */
  inheritsAccess: boolean;
  createdAt: number;
  updatedAt: number;
}

/** folders/access/update: null keeps the access type, or the inheritance. */
export interface FolderAccess {
  accessType: AccessType | null;
  inherits: boolean | null;
}

/** folders/add and update: name null keeps the name; parentId undefined keeps the place, null is the top. */
export interface FolderWrite extends GivenTimes {
  folderId: string;
  name: string | null;
  parentId: string | null | undefined;
  /** Its access type (folders/add may set one); null or absent keeps it, or the default for a new folder. */
  accessType?: AccessType | null;
}
