// Select lists of the read paths, shared by both databases: the column names are the same. The read
// paths fetch rows as arrays (better-sqlite3's raw mode, pg's rowMode 'array'): building an object per
// row costs a property store per column, which measured a third of a 10-notification read. Each
// feature's mapper finds a field by its position in its list.
import type { Profile } from './store.js';

/** A read's select list, as field -> column: its order is the order of the columns in each row. */
type SelectList = Record<string, string>;
export type Positions<S extends SelectList> = { readonly [K in keyof S]: number };

export const positions = <S extends SelectList>(select: S): Positions<S> =>
  Object.fromEntries(Object.keys(select).map((field, i) => [field, i])) as Positions<S>;

/** The SELECT list of a read: its columns in field order. */
export const columnsOf = (select: SelectList): string => Object.values(select).join(', ');

/** The profile columns a read joins as `u`, named the same in every read. */
export const PROFILE_SELECT = {
  profileUserId: 'u.user_id',
  profileName: 'u.name',
  profileEmail: 'u.email',
  profilePhotoUrl: 'u.photo_url',
} as const;

/** The joined profile columns of a read row, or null where the user has no profile (a LEFT JOIN miss). */
export function joinedProfile(r: unknown[], at: Positions<typeof PROFILE_SELECT>): Profile | null {
  const userId = r[at.profileUserId];
  if (userId === null || userId === undefined) return null;
  return {
    userId: userId as string,
    name: r[at.profileName] as string | null,
    email: r[at.profileEmail] as string | null,
    photoUrl: r[at.profilePhotoUrl] as string | null,
  };
}
