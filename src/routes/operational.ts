// Liveness and readiness for load balancers and orchestrators (SPEC 8); no credentials.
import { ApiError } from '../errors.js';
import { errorBody } from '../http/error-handler.js';
import type { App } from '../http/types.js';
import type { Store } from '../store/store.js';

export function registerOperational(app: App, store: Store): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await store.ping();
      return { status: 'ready', database: store.kind };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send(errorBody(new ApiError('UNAVAILABLE', 'The database is unreachable.')));
    }
  });
}
