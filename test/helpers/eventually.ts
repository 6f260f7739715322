// Waiting, in a test, for what it cannot await directly: another process's log line, a delivery to a
// receiver, a page's state in the browser.

/**
 * Polls `check` every `everyMs` until it answers true; after `ms`, throws saying what it waited for
 * (`what` may be a function, to describe the state at the end).
 */
export async function eventually(
  what: string | (() => string),
  check: () => boolean | Promise<boolean>,
  { ms = 5_000, everyMs = 20 }: { ms?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
