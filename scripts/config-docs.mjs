#!/usr/bin/env node
// `npm run docs:config`: writes the settings table of docs/configuration.md from the declarations
// in src/config/index.ts (built to dist/), between its markers. test/unit/config.test.ts fails when the
// two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS, settingsTable } from '../dist/config/index.js';
import { TABLE_END, TABLE_START } from '../dist/config/setting.js';

const path = new URL('../docs/configuration.md', import.meta.url);
const doc = readFileSync(path, 'utf8');
const start = doc.indexOf(TABLE_START);
const end = doc.indexOf(TABLE_END);
if (start < 0 || end < start) throw new Error('docs/configuration.md lacks the table markers');
const table = settingsTable(Object.values(SETTINGS));
writeFileSync(path, `${doc.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${doc.slice(end)}`);
console.log('docs/configuration.md: settings table written');
