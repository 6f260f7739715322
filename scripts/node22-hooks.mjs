// Loaded with --import by the test runs on Node 22 (scripts/test.mjs): `better-sqlite3` resolves to the copy
// built for Node 22 (scripts/node22.mjs), not the project's, built for the Node that installed it. Workers and
// processes started with the same flags load it too; under any other Node it does nothing.
import { register } from 'node:module';

if (process.versions.node.split('.')[0] === '22') register('./node22-resolve.mjs', import.meta.url);
