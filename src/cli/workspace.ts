// `marginalia workspace credentials` (docs/api.md, "Workspace keys and tokens"): the workspace is this
// installation; its id and auth token call the workspace pages (API keys and their tokens).
import { systemClock } from '../clock.js';
import { issueWorkspaceCredentials } from '../services/workspace-credentials.js';
import type { Store } from '../store/store.js';
import type { Io } from './commands.js';

export const WORKSPACE_CREDENTIALS_USAGE = 'workspace credentials';

/**
 * Makes the workspace's id and auth token, or, when they exist, a new token (the old one stops working at
 * once; the id stays). Prints {"workspaceId","workspaceAuthToken","rotated"}: the token is shown only here.
 */
export async function workspaceCredentials(store: Store, io: Io): Promise<void> {
  io.out(JSON.stringify(await issueWorkspaceCredentials(store, systemClock)));
}
