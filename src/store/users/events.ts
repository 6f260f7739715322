// The events of user writes (events/drafts.ts): each user as users/get shows them.
import { shownMember } from '../../domain/answers/objects.js';
import type { Profile, Scope } from '../../domain/users.js';
import { draft, json } from '../events/drafts.js';
import type { EventDraft } from '../events/outbox.js';

/**
 * users/add and users/update (and the authors commentannotations/update makes profiles): each user named
 * that has a profile, as users/get shows it, from the profiles the write's statements returned.
 */
export function usersShown(
  type: 'user.add' | 'user.update',
  organizationId: string,
  scope: Scope,
  userIds: readonly string[],
  found: ReadonlyMap<string, Profile>,
): EventDraft[] {
  const documentId = scope?.kind === 'document' ? scope.id : null;
  return userIds.flatMap((userId) => {
    const p = found.get(userId);
    return p ? [draft(type, organizationId, documentId, json(shownMember(p)))] : [];
  });
}

/** users/delete: each user removed (with a document or folder, only from it: the data says which). */
export const usersDeleted = (organizationId: string, scope: Scope, userIds: Iterable<string>): EventDraft[] =>
  [...userIds].map((userId) =>
    draft(
      'user.delete',
      organizationId,
      scope?.kind === 'document' ? scope.id : null,
      json(scope ? { userId, [scope.kind === 'document' ? 'documentId' : 'folderId']: scope.id } : { userId }),
    ),
  );
