// The workspace's credentials (docs/api.md, "Workspace keys and tokens"): the workspace is this installation,
// its id and auth token made or rotated by `marginalia workspace credentials`. The token is kept only as
// a SHA-256 hash, like tenants' (services/credentials.ts), and compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import type { Store } from '../store/store.js';
import type { Workspace, WorkspaceRecord } from '../domain/api-keys.js';
import { newWorkspaceId, newWorkspaceToken } from '../domain/ids.js';
import { sha256 } from '../domain/sha256.js';
import { hashToken, tokenRecord } from './credentials.js';

/** The one answer to workspace credentials that do not check out: it tells nothing of which part was wrong. */
export const BAD_WORKSPACE_CREDENTIALS = 'Invalid workspace id or workspace auth token.';

export interface IssuedWorkspaceCredentials {
  workspaceId: string;
  workspaceAuthToken: string;
  /** false: made now; true: the token of existing credentials was replaced (the old one no longer works). */
  rotated: boolean;
}

/** Makes the workspace's credentials, or rotates their token: the token is returned once, never stored. */
export async function issueWorkspaceCredentials(store: Store, clock: Clock): Promise<IssuedWorkspaceCredentials> {
  const token = newWorkspaceToken();
  const done = await store.setWorkspaceToken(newWorkspaceId(), tokenRecord(token, clock()));
  return { workspaceId: done.workspaceId, workspaceAuthToken: token, rotated: done.rotated };
}

// Compared against when no workspace credentials exist yet, so that case takes the time of a wrong token.
const DECOY: WorkspaceRecord = { workspaceId: '', tokenHash: hashToken('decoy'), prefix: '', createdAt: 0, rotatedAt: null };

/** Equal in constant time, whatever the lengths (both are hashed first). */
const sameText = (a: string, b: string) =>
  timingSafeEqual(Buffer.from(sha256(a, 'hex'), 'hex'), Buffer.from(sha256(b, 'hex'), 'hex'));

/**
 * The workspace behind an id and token, or 401 (thrown, or a rejection on PostgreSQL). Both are compared
 * whatever the first gives, so the time does not tell which was wrong.
 */
export function authenticateWorkspace(store: Store, workspaceId: string, token: string): Maybe<Workspace> {
  const given = Buffer.from(hashToken(token), 'hex');
  const admitted = (found: WorkspaceRecord | null): boolean => {
    const record = found ?? DECOY;
    const idMatches = sameText(workspaceId, record.workspaceId);
    const tokenMatches = timingSafeEqual(given, Buffer.from(record.tokenHash, 'hex'));
    return found !== null && idMatches && tokenMatches;
  };
  return then(store.workspaceCredentials(), (found) => {
    if (admitted(found)) return { workspaceId: found!.workspaceId };
    // Read once more past SQLite's shared snapshot: the CLI may just have made the token (services/credentials.ts, again).
    return then(store.latestWorkspaceCredentials(), (latest) => {
      if (!admitted(latest)) throw new ApiError('UNAUTHENTICATED', BAD_WORKSPACE_CREDENTIALS);
      return { workspaceId: latest!.workspaceId };
    });
  });
}
