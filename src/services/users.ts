// users/add and users/update (docs/api.md, "Users").
import type { Static } from 'typebox';
import type { UserOutcome as UserOutcomeSchema } from '../schemas/responses.js';
import type { UsersData } from '../schemas/users.js';
import { type Maybe, then } from '../maybe.js';
import type { UserWrite } from '../domain/users.js';
import type { Caller, Services } from './context.js';
import { internalUserId } from '../domain/ids.js';
import { grantsOfUsers } from './role-grants.js';
import { requireUnique, scopeOf } from './rules.js';

type UsersInput = UsersData;
type UserOutcome = Static<typeof UserOutcomeSchema>;

function writes(input: UsersInput): UserWrite[] {
  return input.users.map((u) => ({
    userId: u.userId,
    name: u.name ?? undefined,
    email: u.email ?? undefined,
    photoUrl: u.photoUrl ?? undefined,
  }));
}

export function addUsers({ store, clock }: Services, caller: Caller, input: UsersInput): Maybe<Record<string, UserOutcome>> {
  const scope = scopeOf(input);
  requireUnique(input.users, (u) => u.userId, ['users'], 'userId');
  return then(
    store.upsertUsers(
      caller.id,
      input.organizationId,
      scope,
      writes(input),
      clock(),
      input.createFolder === true,
      grantsOfUsers(input.organizationId, scope, input.users),
    ),
    () => outcomes(caller, input, () => ({ success: true, message: 'User added.' })),
  );
}

export function updateUsers({ store, clock }: Services, caller: Caller, input: UsersInput): Maybe<Record<string, UserOutcome>> {
  const scope = scopeOf(input);
  requireUnique(input.users, (u) => u.userId, ['users'], 'userId');
  const grants = grantsOfUsers(input.organizationId, scope, input.users);
  return then(store.updateUsers(caller.id, input.organizationId, scope, writes(input), clock(), grants), (updated) =>
    outcomes(caller, input, (userId) =>
      updated.has(userId) ? { success: true, message: 'User updated.' } : { success: false, message: 'User does not exist.' },
    ),
  );
}

function outcomes(
  caller: Caller,
  input: UsersInput,
  outcome: (userId: string) => Omit<UserOutcome, 'id'>,
): Record<string, UserOutcome> {
  // fromEntries: a userId such as "__proto__" is an ordinary own key here.
  return Object.fromEntries(
    input.users.map(({ userId }): [string, UserOutcome] => {
      const { success, message } = outcome(userId);
      return [userId, { success, id: internalUserId(caller.id, input.organizationId, userId), message }];
    }),
  );
}
