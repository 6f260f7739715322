// A user's access to a document (docs/decisions.md, "Permissions"), asked by every end-user read and write
// (services/end-users.ts), by verifyUserPermissions on server-credential writes and by an end-user token's
// event stream: the store gathers the facts in one statement, and domain/access.ts decides.
import { type Access, type AccessFacts, accessOf } from '../domain/access.js';
import { type Maybe, then } from '../maybe.js';
import type { Services } from './context.js';
import { DEFAULT_MAX_FOLDER_DEPTH } from './folders.js';

/** Whom and what the check is about. */
export interface DocumentAccessQuery {
  tenantId: string;
  organizationId: string;
  documentId: string;
  userId: string;
}

/** The facts of the document for the user (a document with no row is organizationPrivate, as domain/access.ts says). */
export function documentFacts(services: Services, q: DocumentAccessQuery): Maybe<AccessFacts> {
  const maxDepth = services.maxFolderDepth ?? DEFAULT_MAX_FOLDER_DEPTH;
  const read = services.store.accessFacts(q.tenantId, q.organizationId, { documentId: q.documentId }, q.userId, maxDepth);
  return then(read, ({ facts }) => facts);
}

/** The user's access to the document now: none, viewer or editor. */
export function documentAccess(services: Services, q: DocumentAccessQuery): Maybe<Access> {
  return then(documentFacts(services, q), (facts) => accessOf(facts, services.clock()));
}
