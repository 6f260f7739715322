#!/usr/bin/env node
// `npm start`'s pre-step: builds dist/ only when a source file is newer than the last build (or there
// is none, as on a fresh clone). Rebuilding on every start rewrote dist/ under servers that other
// processes (the test suite's) were starting from it.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/main.js';
const SOURCES = ['src', 'client/src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'client/tsconfig.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

if (!existsSync(STAMP) || Math.max(...SOURCES.map(newest)) > statSync(STAMP).mtimeMs) {
  execSync('npm run build', { stdio: 'inherit' });
}
