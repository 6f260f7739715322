// The server of the operation-count row (run.ts): the real app on the bench's database, with every
// operation registered again under `copies` synthetic path prefixes (/copy1/v1/..., a bench-only option
// of buildApp), so two of these, with 0 and with 2 copies, differ in nothing but how many operations
// are registered.
//   node --import tsx bench/operations-server.ts <port> <copies>   (DATABASE_URL etc. in the environment)
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/index.js';
import { openStore } from '../src/store/open-store.js';

const [port, copies] = [Number(process.argv[2]), Number(process.argv[3] ?? 0)];
const loaded = loadConfig({ ...process.env, MARGINALIA_RATE_LIMIT: '0', MARGINALIA_AUTH_FAILURE_FLOOR_MS: '0' });
if (!loaded.ok) throw new Error(loaded.errors.join('; '));
const store = await openStore(loaded.config);
const app = await buildApp({
  config: loaded.config,
  store,
  extraOperationPrefixes: Array.from({ length: copies }, (_, i) => `/copy${i + 1}`),
});
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => store.close().then(() => process.exit(0))));
