#!/usr/bin/env node
// Part of `npm run lint`: no line of code of 140 characters or more. The formatter wraps code at 130,
// but cannot break a long string, a test title or an SQL text: those are wrapped by hand.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LIMIT = 140;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.js'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && !f.startsWith('node_modules/'));
const long = [];
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.length >= LIMIT) long.push(`${file}:${i + 1}: ${line.length} characters`);
    });
}
if (long.length > 0) {
  console.error(`Lines of ${LIMIT} characters or more:\n${long.join('\n')}`);
  process.exit(1);
}
