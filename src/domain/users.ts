/** Membership scope of users/add and users/update besides the organization itself. */
export type Scope = { kind: 'document' | 'folder'; id: string } | null;

/** Profile fields as written: `undefined` leaves a stored field as it is. */
export interface UserWrite {
  userId: string;
  name?: string | undefined;
  email?: string | undefined;
  photoUrl?: string | undefined;
}

export interface Profile {
  userId: string;
  name: string | null;
  email: string | null;
  photoUrl: string | null;
}

/**
 * Profiles looked up for one read and not kept (services/profiles.ts, an organization not let in): answers
 * keep nothing per profile for them. Kept per profile, their text would make every such short-lived
 * profile a weak entry V8's collections trace (docs/decisions.md, "Caches that let new entries in at a
 * bounded rate").
 */
export class PassingProfiles extends Map<string, Profile | undefined> {}

/** An author or actor as the writer sent it; null where the writer left a field out. */
export interface UserRef {
  userId: string;
  name: string | null;
  email: string | null;
}

/** users/get's selection (docs/api.md, "POST /v1/users/get"): each filter null for none. */
export interface MemberQuery {
  organizationId: string;
  scope: Scope;
  userIds: string[] | null;
  /** Members of any of these groups. */
  groupIds: string[] | null;
  /** Only members of some document of the organization (users/get allDocuments). */
  ofAnyDocument?: boolean;
  /** Users strictly after this userId (paging); null: from the first. */
  after: string | null;
  limit: number;
}

/** users/get allDocuments grouped by document: every document membership, in (documentId, userId) order. */
export interface DocumentMemberQuery {
  organizationId: string;
  userIds: string[] | null;
  groupIds: string[] | null;
  /** Strictly after this membership (paging); null: from the first. */
  after: { documentId: string; userId: string } | null;
  limit: number;
}

/** A member of a document, with the profile. */
export interface DocumentMember extends Profile {
  documentId: string;
}

/** A group as usergroups/get reads it; `name` is "" when never named. */
export interface UserGroupRecord {
  groupId: string;
  name: string;
}

/** usergroups/add: a group and its name (null: keep the name it has). */
export interface UserGroupWrite {
  groupId: string;
  name: string | null;
}
