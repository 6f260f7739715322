// verifyUserPermissions on a server-credential write (docs/api.md and docs/decisions.md, "verifyUserPermissions"): the
// users the write names are asked of the one access check (document-access.ts), and the write refuses a comment
// whose author may not write, keeps a notification to the recipients who may read, and applies read marks only
// for users who may read. Checked before the write's transaction, as the end users' rules are.
import { type Access, allows } from '../domain/access.js';
import type { NotificationChange } from '../domain/notifications.js';
import { ApiError, invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { AnnotationsAddData, CommentsAddData } from '../schemas/comments.js';
import type { NotificationsAddV2Data } from '../schemas/notifications.js';
import type { Caller, Services } from './context.js';
import { documentAccess } from './document-access.js';
import { spell } from './member-path.js';

/** A user's access to a document of the organization, as found. */
type AccessOf = (documentId: string, userId: string) => Access;

/** The key of the details entry of an item refused before it had an id (the annotations page's). */
const DENIED_KEY = '__velt_denied:';

const FLAG = spell(['verifyUserPermissions']);

/**
 * Each user's access to each document asked, one statement per pair (each pair once), in turn: a SQLite store
 * answers at once, so no promise is made there; on PostgreSQL one question waits for the one before it.
 */
export function accessOfEach(
  services: Services,
  tenantId: string,
  organizationId: string,
  asks: readonly { documentId: string; userId: string }[],
): Maybe<AccessOf> {
  const found = new Map<string, Map<string, Access>>();
  const pending: { documentId: string; userId: string }[] = [];
  for (const a of asks) {
    const users = found.get(a.documentId) ?? new Map<string, Access>();
    found.set(a.documentId, users);
    if (!users.has(a.userId)) pending.push(a);
    users.set(a.userId, 'none');
  }
  const lookup: AccessOf = (documentId, userId) => found.get(documentId)?.get(userId) ?? 'none';
  const from = (start: number): Maybe<AccessOf> => {
    for (let i = start; i < pending.length; i++) {
      const { documentId, userId } = pending[i]!;
      const access = documentAccess(services, { tenantId, organizationId, documentId, userId });
      if (access instanceof Promise)
        return access.then((a) => {
          found.get(documentId)!.set(userId, a);
          return from(i + 1);
        });
      found.get(documentId)!.set(userId, access);
    }
    return lookup;
  };
  return from(0);
}

/** Why a user may not do what a write wants on the document. */
const why = (userId: string, documentId: string, access: Access): string =>
  access === 'none'
    ? `${userId} has no access to document ${documentId}.`
    : `${userId} may read document ${documentId} but not write to it (a viewer).`;

/** Access is decided within an organization: a write to a document without one cannot ask for it. */
function organizationNeeded(input: { organizationId?: string | null }): string {
  if (input.organizationId == null)
    throw invalid(`${FLAG} needs ${spell(['organizationId'])}: access to a document is decided within its organization.`);
  return input.organizationId;
}

/** A refused item of a comment write: who may not write, and where the request names them. */
interface RefusedAuthor {
  commentIndex: number;
  userId: string;
  access: Access;
}

/** The refusal of a comment write, naming every refused item in `details`: nothing is written. */
function refusal(what: string, documentId: string, details: Record<string, unknown>): ApiError {
  const n = Object.keys(details).length;
  return new ApiError(
    'PERMISSION_DENIED',
    `${FLAG}: ${n} ${what}${n === 1 ? ' has' : 's have'} an author without write access to document ${documentId}; ` +
      'nothing was added (see details).',
    { details },
  );
}

/** The authors of a list of comments who may not write, with where they are. */
const refusedAuthors = (comments: readonly { from: { userId: string } }[], documentId: string, access: AccessOf) =>
  comments.flatMap((c, commentIndex): RefusedAuthor[] => {
    const a = access(documentId, c.from.userId);
    return allows(a, 'write') ? [] : [{ commentIndex, userId: c.from.userId, access: a }];
  });

/**
 * commentannotations/add with the flag: every comment's author must be an editor of the document, or the request is
 * PERMISSION_DENIED with `details` keyed per refused annotation as the page keys them (its annotationId, else
 * `__velt_denied:<index>`), each naming its refused comments and users. Nothing is written.
 */
export function verifyAnnotationAuthors(services: Services, caller: Caller, input: AnnotationsAddData): Maybe<void> {
  if (input.verifyUserPermissions !== true) return;
  const organizationId = organizationNeeded(input);
  const { documentId } = input;
  const asks = input.commentAnnotations.flatMap((a) => a.commentData.map((c) => ({ documentId, userId: c.from.userId })));
  return then(accessOfEach(services, caller.id, organizationId, asks), (access) => {
    // Keys the caller chose are theirs; a key made for an annotation without an id never takes one of them.
    const taken = new Set(input.commentAnnotations.flatMap((a) => (a.annotationId != null ? [a.annotationId] : [])));
    const details: Record<string, unknown> = {};
    input.commentAnnotations.forEach((a, index) => {
      const refused = refusedAuthors(a.commentData, documentId, access);
      if (refused.length === 0) return;
      let key = a.annotationId ?? `${DENIED_KEY}${index}`;
      while (a.annotationId == null && taken.has(key)) key += `:${index}`;
      taken.add(key);
      details[key] = {
        success: false,
        ...(a.annotationId != null ? { annotationId: a.annotationId } : {}),
        index,
        message: refused.map((r) => why(r.userId, documentId, r.access)).join(' '),
        refused,
      };
    });
    if (Object.keys(details).length > 0) throw refusal('annotation', documentId, details);
  });
}

/**
 * commentannotations/comments/add with the flag: as annotations, per comment: `details` keyed by the comment's
 * commentId, else `__velt_denied:<index>`. Nothing is written.
 */
export function verifyCommentAuthors(services: Services, caller: Caller, input: CommentsAddData): Maybe<void> {
  if (input.verifyUserPermissions !== true) return;
  const organizationId = organizationNeeded(input);
  const { documentId } = input;
  const asks = input.commentData.map((c) => ({ documentId, userId: c.from.userId }));
  return then(accessOfEach(services, caller.id, organizationId, asks), (access) => {
    const details: Record<string, unknown> = {};
    for (const r of refusedAuthors(input.commentData, documentId, access)) {
      const commentId = input.commentData[r.commentIndex]!.commentId;
      details[commentId != null ? String(commentId) : `${DENIED_KEY}${r.commentIndex}`] = {
        success: false,
        ...(commentId != null ? { commentId } : {}),
        index: r.commentIndex,
        userId: r.userId,
        access: r.access,
        message: why(r.userId, documentId, r.access),
      };
    }
    if (Object.keys(details).length > 0) throw refusal('comment', documentId, details);
  });
}

/**
 * notifications/add with the flag: the recipients who may read the document, listed (an organization-wide
 * notification is expanded to the organization's members who may), or null without the flag. The action user
 * must be able to read it too. Refused: a notification of no document, an organization too large to expand, an
 * action user without access, and a notification no recipient may read (it would reach no one; an empty list
 * never means everyone).
 */
export function verifiedRecipients(
  services: Services,
  caller: Caller,
  input: NotificationsAddV2Data,
  listed: readonly string[],
): Maybe<string[] | null> {
  if (input.verifyUserPermissions !== true) return null;
  const { organizationId, documentId } = input;
  if (documentId == null)
    throw invalid(
      `${FLAG} needs ${spell(['documentId'])}: recipients are checked for access to the notification's document, ` +
        'and a notification of the organization has none.',
    );
  const most = services.limits.maxBatch;
  const wide = input.notifyAll ?? listed.length === 0;
  const members = wide ? services.store.organizationProfiles(caller.id, organizationId, most + 1) : [];
  return then(members, (profiles) => {
    if (profiles.length > most)
      throw invalid(
        `${spell(['notifyAll'])} with ${FLAG} lists each member who may read the document, and organization ` +
          `${organizationId} has more than ${most} (MARGINALIA_MAX_BATCH): list the recipients in ${spell(['notifyUsers'])}.`,
      );
    const candidates = [...new Set([...listed, ...profiles.map((p) => p.userId)])];
    const actor = input.actionUser.userId;
    const asks = [actor, ...candidates].map((userId) => ({ documentId, userId }));
    return then(accessOfEach(services, caller.id, organizationId, asks), (access) => {
      const actorAccess = access(documentId, actor);
      if (!allows(actorAccess, 'read'))
        throw new ApiError('PERMISSION_DENIED', `${FLAG}: the action user ${actor} has no access to document ${documentId}.`, {
          details: { actionUser: { userId: actor, access: actorAccess } },
        });
      const kept = candidates.filter((u) => allows(access(documentId, u), 'read'));
      if (kept.length === 0)
        throw new ApiError(
          'PERMISSION_DENIED',
          `${FLAG}: no recipient has access to document ${documentId}; nothing was added (see details).`,
          { details: { recipients: candidates.map((userId) => ({ userId, access: access(documentId, userId) })) } },
        );
      return kept;
    });
  });
}

/**
 * notifications/update with the flag: each change's read and unread marks kept for the users who may read its
 * notification's document; the others are dropped, as the page says ("only applied to users with access").
 * Content changes are the notification's, not a user's, and stay. A notification of no document (the
 * organization's) is checked against none: its marks stay. One unknown is left to the write to answer.
 */
export function verifiedMarks(
  services: Services,
  caller: Caller,
  organizationId: string,
  changes: NotificationChange[],
  verify: boolean | null | undefined,
): Maybe<NotificationChange[]> {
  const marked = changes.filter((c) => c.readBy.length + c.unreadBy.length > 0);
  if (verify !== true || marked.length === 0) return changes;
  const ids = [...new Set(marked.map((c) => c.id))];
  return then(services.store.notificationDocuments(caller.id, organizationId, ids), (documents) => {
    const asks = marked.flatMap((c) => {
      const documentId = documents.get(c.id);
      return documentId == null ? [] : [...c.readBy, ...c.unreadBy].map((userId) => ({ documentId, userId }));
    });
    return then(accessOfEach(services, caller.id, organizationId, asks), (access) =>
      changes.map((c) => {
        const documentId = documents.get(c.id);
        if (documentId == null) return c;
        const reads = (userId: string) => allows(access(documentId, userId), 'read');
        return { ...c, readBy: c.readBy.filter(reads), unreadBy: c.unreadBy.filter(reads) };
      }),
    );
  });
}
