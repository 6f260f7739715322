// Every difference between the databases is named in src/store/dialect/ (syntax.ts for SQL text,
// dialect.ts for the rest): no other file of src/ asks which database it is on, and no statement
// spells a row lock itself (SQLite has none, so the syntax gives it an empty clause). The sources are
// read with a small scanner (below), so comments do not count, and neither do unrelated `kind`s (a
// scope's).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const DIALECT = join(SRC, 'store', 'dialect');
/** Each database's schema history, kept as it ran (PL/pgSQL bodies lock rows themselves): not store statements. */
const MIGRATIONS = join(SRC, 'store', 'migrations');

const NAME = String.raw`['"\`](?:sqlite|postgres)['"\`]`;
/** `x === 'sqlite'`, `'postgres' !== kind`, `case 'sqlite':`: a test of which database this is. */
const SWITCH = new RegExp(String.raw`(?:[!=]==?\s*${NAME})|(?:${NAME}\s*[!=]==?)|(?:\bcase\s+${NAME}\s*:)`);
const LOCK_CLAUSE = /\bFOR\s+(?:NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b/i;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return path === DIALECT ? [] : sources(path);
    return d.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * A source split in two: its code with every comment blanked (strings kept, lines in place), and the
 * text of its string and template literals, each with the line it starts on. Regular expression
 * literals are told from division by what precedes them, which is enough for this code base.
 */
export function scan(text: string): { code: string; strings: { line: number; text: string }[] } {
  let code = '';
  const strings: { line: number; text: string }[] = [];
  /** Open template literals: the brace depth of the `${` each is inside of. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const lineAt = (at: number) => text.slice(0, at).split('\n').length;
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  const regexMayStart = () => /(?:^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof)\s*$/.test(code);
  /** Reads a template's text from i (after ` or }) to its end or its next `${`. */
  const templateText = () => {
    const start = i;
    let piece = '';
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\\') {
        piece += text.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        i++;
        strings.push({ line: lineAt(start), text: piece });
        code += text.slice(start, i);
        return;
      } else if (c === '$' && text[i + 1] === '{') {
        i += 2;
        strings.push({ line: lineAt(start), text: piece });
        code += text.slice(start, i);
        templates.push(depth);
        depth++;
        return;
      } else {
        piece += c;
        i++;
      }
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      code += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      code += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      const start = i;
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i++;
      strings.push({ line: lineAt(start), text: text.slice(start + 1, i - 1) });
      code += text.slice(start, i);
    } else if (c === '`') {
      code += c;
      i++;
      templateText();
    } else if (c === '/' && regexMayStart()) {
      const start = i;
      let inClass = false;
      i++;
      while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      code += blank(text.slice(start, i));
    } else {
      if (c === '{') depth++;
      if (c === '}') {
        depth--;
        if (templates.length > 0 && templates[templates.length - 1] === depth) {
          templates.pop();
          code += c;
          i++;
          templateText();
          continue;
        }
      }
      code += c;
      i++;
    }
  }
  return { code, strings };
}

/** Where a source tests which database it is on. */
export function databaseSwitches(file: string, text: string): string[] {
  return scan(text)
    .code.split('\n')
    .flatMap((line, n) => (SWITCH.test(line) ? [`${relative(ROOT, file)}:${n + 1}: ${line.trim()}`] : []));
}

/** Row-lock clauses written in string or template text. */
export function inlineLocks(file: string, text: string): string[] {
  return scan(text).strings.flatMap(({ line, text: s }) => {
    const m = LOCK_CLAUSE.exec(s);
    return m ? [`${relative(ROOT, file)}:${line}: ${m[0]}`] : [];
  });
}

test('the checks find what they look for', () => {
  const code = [
    "const a = kind === 'sqlite' ? 1 : 2;",
    "if ('postgres' !== this.dialect.kind) go();",
    "switch (db.kind) { case 'postgres': break; }",
    "const s = scope.kind === 'document';",
    '// kind === "sqlite" in a comment',
  ].join('\n');
  assert.equal(databaseSwitches('x.ts', code).length, 3);
  const sql = `
    const a = \`SELECT 1 FROM t \${where} FOR UPDATE\`;
    const b = ' FOR NO KEY UPDATE';
    const c = \`\${x} for key share of n \${y}\`;
    // SELECT ... FOR UPDATE, in a comment
    const d = 'FOR EACH ROW';`;
  assert.equal(inlineLocks('x.ts', sql).length, 3);
});

test('no file of src/ outside src/store/dialect/ tests which database it is on', () => {
  const found = sources(SRC).flatMap((file) => databaseSwitches(file, readFileSync(file, 'utf8')));
  assert.deepEqual(found, [], 'name the difference in src/store/dialect/ (syntax.ts, dialect.ts) and use it');
});

test('no statement outside src/store/dialect/ spells a row lock', () => {
  const found = sources(SRC)
    .filter((file) => !file.startsWith(`${MIGRATIONS}/`))
    .flatMap((file) => inlineLocks(file, readFileSync(file, 'utf8')));
  assert.deepEqual(found, [], "use the syntax's lock() or lockInOrder() (src/store/dialect/syntax.ts)");
});
