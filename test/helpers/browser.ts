// The Chromium the browser tests drive (Debian's, through playwright-core): they skip themselves,
// saying why, where there is none, except in CI (MARGINALIA_TEST_REQUIRE_BROWSER), where that fails.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './server-process.js';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const NEEDS_BROWSER = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
if (NEEDS_BROWSER && process.env.MARGINALIA_TEST_REQUIRE_BROWSER)
  throw new Error(`MARGINALIA_TEST_REQUIRE_BROWSER is set, but ${NEEDS_BROWSER}`);

/** Where browser tests save their screenshots. */
export const ARTIFACTS = join(REPO, 'test-artifacts');
