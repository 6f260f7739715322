// The Store conformance suite (test/store-suite.ts) on SQLite.
import { storeSuite } from './store-suite.js';

storeSuite('sqlite');
