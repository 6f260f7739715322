// The removal worker (docs/decisions.md, "Attachments (issue 41)"): every MARGINALIA_ATTACHMENT_SWEEP_SECONDS it
// deletes uploads that expired unattached (their rows' delete queues their files, migration 46), then removes the
// queued files from storage, a batch at a time. A queue row goes only once its file is gone, so a crash at any
// point leaves the row to the next round; a failed removal comes back after a growing wait. Keys are never reused,
// so removing one can never take a file a row still refers to. Several instances may run it: a removal is idempotent.
import type { Store } from '../store/store.js';
import { type Pruner, periodically } from '../events/pruner.js';
import type { AttachmentStorage } from './storage.js';

const BATCH = 100;
/** The longest wait between two tries of a failing removal. */
const MAX_BACKOFF_MS = 3_600_000;

/** One round; answers the files removed. */
export async function removeDeletedFiles(
  store: Store,
  storage: AttachmentStorage,
  now: number,
  onFailure: (err: unknown) => void = () => {},
): Promise<number> {
  while ((await store.expireUploads(now, BATCH)) === BATCH) await new Promise<void>((r) => setImmediate(r));
  let removed = 0;
  for (;;) {
    const due = await store.dueAttachmentRemovals(now, BATCH);
    for (const r of due) {
      try {
        await storage.remove(r.storageKey);
        await store.attachmentRemoved(r.storageKey);
        removed++;
      } catch (err) {
        // Said, not only retried: a store that refuses every removal (credentials, a full disk) must show.
        onFailure(err);
        await store.retryAttachmentRemoval(r.storageKey, now + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(r.attempts, 20)));
      }
    }
    if (due.length < BATCH) return removed;
  }
}

export function startAttachmentRemovals(
  store: Store,
  storage: AttachmentStorage,
  options: { everySeconds: number; now?: () => number; onError?: (err: unknown) => void },
): Pruner {
  const now = options.now ?? Date.now;
  return periodically(() => removeDeletedFiles(store, storage, now(), options.onError), {
    everyMs: options.everySeconds * 1000,
    onError: options.onError,
  });
}
