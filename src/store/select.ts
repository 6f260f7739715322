// Select lists of the read paths, shared by both databases: the column names are the same. The read
// paths fetch rows as arrays (better-sqlite3's raw mode, pg's rowMode 'array'): building an object per
// row costs a property store per column, which measured a third of a 10-notification read. Each
// feature's mapper finds a field by its position in its list.

/** A read's select list, as field -> column: its order is the order of the columns in each row. */
type SelectList = Record<string, string>;
export type Positions<S extends SelectList> = { readonly [K in keyof S]: number };

export const positions = <S extends SelectList>(select: S): Positions<S> =>
  Object.fromEntries(Object.keys(select).map((field, i) => [field, i])) as Positions<S>;

/** The SELECT list of a read: its columns in field order. */
export const columnsOf = (select: SelectList): string => Object.values(select).join(', ');

/**
 * The organization's profile version as a column of a read (migration 7): one lookup per statement
 * (a constant subquery), where joining users was one per row. A read that finds no row needs none.
 */
export const PROFILE_VERSION =
  '(SELECT v.version FROM profile_versions v WHERE v.tenant_id = @tenantId AND v.organization_id = @organizationId)';

/**
 * The credentials version as a column of a read: the read itself confirms a request that was admitted
 * from the auth cache (http/auth.ts), where a separate version read would be one more statement, and
 * on PostgreSQL one more round trip, per request.
 */
export const CREDENTIALS_VERSION = '(SELECT cv.version FROM credentials_version cv WHERE cv.id = 1)';

/** The document's thread version as a column of a read (migration 11); 0 before its first write. */
export const DOCUMENT_VERSION = `coalesce((SELECT dv.version FROM document_versions dv WHERE dv.tenant_id = @tenantId
    AND dv.organization_id = @organizationId AND dv.document_id = @documentId), 0)`;

/** Where a read row holds the versions it was read under. */
export interface VersionPositions {
  profileVersion: number;
  credentialsVersion: number;
}

/** The versions a read row was read under (the same on every row of a read). */
export const versionsOf = (r: unknown[], at: VersionPositions): { profileVersion: number; credentialsVersion: number } => ({
  // 0 before the organization's users were first written.
  profileVersion: Number(r[at.profileVersion] ?? 0),
  credentialsVersion: Number(r[at.credentialsVersion]),
});
