// Where a member sits in a request, as error messages name it (docs/api.md, "Wire format": `data.users[2].email`).
// Services say which member in domain terms, as a list of names and indexes; this is the one place
// that spells it the way the wire does.
export type MemberPath = readonly (string | number)[];

/** `['users', 2, 'email']` -> `data.users[2].email`. */
export function spell(path: MemberPath): string {
  return path.reduce<string>(
    (out, segment) => (typeof segment === 'number' ? `${out}[${segment}]` : `${out}.${segment}`),
    'data',
  );
}
