// The import rule of docs/architecture.md: layers import only downward. The store may import only
// itself, the domain rules and the schemas (and maybe.ts); the domain only itself and the schemas;
// the schemas only themselves; services nothing of HTTP. A change that imports upward fails here,
// with the file and the import named.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '../..');

/** Where each folder of src/ may import from (folders of src/, or single files such as maybe.ts). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  schemas: ['schemas'],
  domain: ['domain', 'schemas', 'maybe.ts'],
  store: ['store', 'domain', 'schemas', 'maybe.ts'],
};
/** What a folder must never import, whatever else it may (services speak the domain, not HTTP). */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  services: ['http', 'routes', 'app.ts', 'server.ts', 'main.ts'],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The relative imports of a source text. */
export function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!).filter((s) => s.startsWith('.'));
}

/** The part of src/ a path is in: its first folder, or the file itself at the top. */
const partOf = (fromSrc: string): string => fromSrc.split('/')[0]!;

/** The imports that break the rule, as "file -> import" lines; `files` maps a path under src/ to its text. */
export function violations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    const from = partOf(file);
    for (const spec of importsOf(text)) {
      const target = relative('.', join(dirname(file), spec))
        .replaceAll('\\', '/')
        .replace(/\.js$/, '.ts');
      if (target.startsWith('..')) continue; // outside src/ (a package's own files)
      const to = partOf(target);
      const allowed = ALLOWED[from];
      if ((allowed && !allowed.includes(to)) || FORBIDDEN[from]?.includes(to)) found.push(`src/${file} -> ${spec}`);
    }
  }
  return found;
}

function sources(dir: string, under = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of sources(dir, path)) out.set(k, v);
    else if (e.name.endsWith('.ts')) out.set(path, readFileSync(join(dir, path), 'utf8'));
  }
  return out;
}

describe('layers import only downward', () => {
  it('no file of src/ imports against the rule', () => {
    const files = sources(join(ROOT, 'src'));
    assert.ok(files.size > 100, 'the source tree was read');
    assert.deepEqual(violations(files), []);
  });

  it('the check names an upward import, a dynamic one and a forbidden one', () => {
    const files = new Map([
      ['store/users/users.ts', "import { x } from '../../services/ids.js';\nimport type { Y } from '../../domain/users.js';"],
      ['domain/answers/a.ts', "const m = await import('../../config/index.js');"],
      ['services/users.ts', "import { tenantOf } from '../http/auth.js';\nimport { z } from '../store/store.js';"],
      ['schemas/users.ts', "export { Id } from './common.js';"],
    ]);
    assert.deepEqual(violations(files), [
      'src/store/users/users.ts -> ../../services/ids.js',
      'src/domain/answers/a.ts -> ../../config/index.js',
      'src/services/users.ts -> ../http/auth.js',
    ]);
  });
});
