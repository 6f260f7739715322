// Writes openapi.json: the OpenAPI document the service serves at /openapi.json with the default
// settings, committed so it can be read (and diffed) without running anything. `npm run openapi`
// rebuilds and rewrites it; test/unit/api-docs.test.ts fails when the two drift apart.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config/index.js';
import { openStore } from '../dist/store/open-store.js';

const loaded = loadConfig({ DATABASE_URL: 'sqlite::memory:' });
if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
const store = await openStore(loaded.config);
const app = await buildApp({ config: loaded.config, store });
await app.ready();
const res = await app.inject({ method: 'GET', url: '/openapi.json' });
writeFileSync(new URL('../openapi.json', import.meta.url), `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`);
await app.close();
await store.close();
console.log('openapi.json written');
