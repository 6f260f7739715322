// Liveness and readiness for load balancers and orchestrators (SPEC 8); no credentials.
import { ApiError } from '../errors.js';
import { errorBody } from '../http/error-handler.js';
import type { App } from '../http/types.js';
import type { Store } from '../store/store.js';

export function registerOperational(app: App, store: Store): void {
  // No credentials: these describe themselves with an empty security requirement.
  const open = (summary: string) => ({ schema: { summary, tags: ['operational'], security: [] } });
  app.get('/healthz', open('The process is alive'), async () => ({ status: 'ok' }));
  app.get('/readyz', open('The database is reachable (503 when not)'), async (request, reply) => {
    try {
      await store.ping();
      return { status: 'ready', database: store.kind };
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed');
      return reply.code(503).send(errorBody(new ApiError('UNAVAILABLE', 'The database is unreachable.')));
    }
  });
}
