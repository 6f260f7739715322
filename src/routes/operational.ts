// Liveness and readiness for load balancers and orchestrators (docs/api.md, "Operational endpoints"); no
// credentials.
import { ApiError } from '../errors.js';
import { errorBody, unavailable } from '../http/error-handler.js';
import type { App } from '../http/types.js';
import { StoreUnavailableError, type Store } from '../store/store.js';

export function registerOperational(app: App, store: Store): void {
  // No credentials: these describe themselves with an empty security requirement.
  const open = (summary: string) => ({ schema: { summary, tags: ['operational'], security: [] } });
  app.get('/healthz', open('The process is alive'), async () => ({ status: 'ok' }));
  app.get('/readyz', open('The database is reachable (503 when not)'), async (request, reply) => {
    try {
      await store.ping();
      // The check of a large SQLite file runs after start (MARGINALIA_SQLITE_CHECK_INLINE_MB): said while it runs, and how it ended.
      const check = store.check();
      return { status: 'ready', database: store.kind, ...(check === 'off' ? {} : { check }) };
    } catch (err) {
      // A lasting fault was logged at error level when it began; each failed check need not repeat it.
      const lasting = store.fault() !== null;
      request.log[lasting ? 'debug' : 'warn']({ err }, 'readiness check failed');
      const answer =
        err instanceof StoreUnavailableError ? unavailable(err) : new ApiError('UNAVAILABLE', 'The database is unreachable.');
      return reply.code(503).headers(answer.headers).send(errorBody(answer));
    }
  });
}
