// Memory at rest: a process that has been sent no request for MARGINALIA_REST_AFTER_MS lets go of what
// it keeps only for speed (the answered pages of threads, the profiles, SQLite's page cache), so a
// quiet instance falls back to its base size instead of holding its peak for as long as it runs
// (docs/decisions.md, "Memory at rest"). The first requests after it read from the database (and the
// operating system's cache of the file) again. Nothing correct depends on a cache: each one only
// answers again what the database says is still current.
import type { App } from './types.js';

/** MARGINALIA_REST_AFTER_MS's default: half a minute without a single request is an instance at rest, not a busy one. */
export const DEFAULT_REST_AFTER_MS = 30_000;

/** What is let go at rest: each cache's clear(), and the store's own. */
export interface AtRest {
  /** No request for this long lets go; 0 never does. */
  afterMs: number;
  release: () => void;
}

/** How many looks at the count of requests per rest period: the release comes at most a quarter late. */
const LOOKS = 4;

/**
 * Counts requests (one increment each, in a hook) and looks at the count on a timer that does not keep
 * the process alive: unchanged for `afterMs` since the last request seen, it releases once, until the
 * next request.
 */
export function registerAtRest(app: App, rest: AtRest): void {
  if (rest.afterMs <= 0) return;
  let requests = 0;
  let seen = -1;
  let quietLooks = 0;
  let released = false;
  app.addHook('onRequest', (_request, _reply, done) => {
    requests++;
    done();
  });
  const look = () => {
    if (requests !== seen) {
      seen = requests;
      quietLooks = 0;
      released = false;
      return;
    }
    if (released || ++quietLooks < LOOKS) return;
    released = true;
    const started = performance.now();
    try {
      rest.release();
    } catch (err) {
      // On a timer: a throw would end the process. A cache that could not be let go is only memory.
      app.log.warn({ err }, 'at rest: letting go of the caches failed');
      return;
    }
    app.log.debug({ ms: Math.round(performance.now() - started) }, 'at rest: caches released');
  };
  const timer = setInterval(look, Math.max(1, Math.floor(rest.afterMs / LOOKS)));
  timer.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    done();
  });
}
