// Database files hold secrets (webhook secrets, token-signing keys): the ones Marginalia creates are
// for their owner only (docs/operations.md, "Secrets at rest").
import { closeSync, constants, existsSync, openSync } from 'node:fs';

/**
 * Creates `path` empty and readable by its owner only (0600), unless it is there already: SQLite then
 * writes into it, and gives its WAL and shared-memory files the same mode. A file that exists keeps
 * the mode its operator gave it.
 */
export function createPrivateFile(path: string): void {
  if (existsSync(path)) return;
  try {
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
  } catch (err) {
    // Another process made it first: theirs is made the same way.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
