// The floor of a served request (issue 35's "prototype of the served request"): the bench's operations
// served by a bare Fastify route, as bench/baseline-server.ts serves its own, whose handler is the
// operation's own service call on the real store (the same schema and statements, the same answer), and
// nothing else of the app: no credential check, rate limit, request id, envelope hooks, metrics or
// logging. A row's ratio here against its ratio on the real server is what the app around the store
// costs; what is left is the store's own, the floor no work on the pipeline can go below.
//
// Another design of the store can be tried here first, measured beside the app in the same pairs
// (docs/decisions.md, "Writes of a turn in one commit, tried": a prototype measured this way).
//   node --import tsx bench/floor-server.ts <port>   (DATABASE_URL etc. in the environment)
import Fastify from 'fastify';
import { servicesOf } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config/index.js';
import { then } from '../src/maybe.js';
import { OPERATIONS } from '../src/operations/index.js';
import { pathsOf } from '../src/operations/operation.js';
import { success } from '../src/http/envelope.js';
import type { Services } from '../src/services/context.js';
import { openStore } from '../src/store/open-store.js';
import type { Tenant } from '../src/domain/credentials.js';
import { BENCH_CREDENTIALS } from './dataset.js';
import { FLOOR_PATHS } from './operations.js';

const loaded = loadConfig({ ...process.env, MARGINALIA_RATE_LIMIT: '0' });
if (!loaded.ok) throw new Error(loaded.errors.join('; '));
const { config } = loaded;
const store = await openStore(config);
const found = await store.findCredentials(BENCH_CREDENTIALS.apiKey);
if (!found) throw new Error('no bench tenant: build the dataset with npm run bench first');
const tenant: Tenant = found.tenant;
const services = servicesOf(config, store, systemClock);

const app = Fastify({ logger: false });
for (const op of OPERATIONS) {
  for (const path of pathsOf(op).filter((p) => FLOOR_PATHS.has(p))) {
    const run = op.run as (services: Services, tenant: Tenant, data: unknown) => unknown;
    const answer = op.answer;
    app.post(path, { schema: { body: op.contract.body(config.limits) } }, (request, reply) => {
      const data = (request.body as { data: unknown }).data;
      return then(run(services, tenant, data) as never, (got: unknown) =>
        typeof answer === 'string' ? success(answer, got) : answer(got, request, reply),
      );
    });
  }
}
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => store.close().then(() => process.exit(0))));
