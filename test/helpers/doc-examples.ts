// The examples of docs/api.md as a test runs them (test/system/docs-examples.test.ts): the ```sh blocks, each
// command in them, the answer shown under it, and how a shown answer is compared with the real one.
//
// The conventions, which docs/api.md states in its "Examples" section:
// - A command runs until its quotes close and its line does not end in `\`; the `# ` lines after it show its
//   answer, as JSON, up to a blank line (a `#` line after a blank one is a comment on what follows). A shown
//   answer that starts with a member (`"data":...`) is a fragment: some object of the answer has those members.
// - `...` stands for what is left out: a member or item (`{"id":"n1",...}`, `[...]`), a value (`"startedAt":...`),
//   or the rest of a string (`"mk_..."`, `"..."`: any string).
// - An object shown without `...` has exactly the members shown; an array without `...` exactly the items shown.
// - What the server makes differs on each run: a time in ms (13 digits) or ISO 8601 matches any of its kind; an
//   id it makes (32 hex, a UUID, `wh_...`, `exec_...` and the other prefixed ids, a token) matches any id of its
//   kind, and is then that id for the rest of the run: shown again, in an answer or in a later command, it stands
//   for the id the first answer gave (the test writes the real one into the command). So an example can use the
//   id an earlier one answered, as a reader copies it.
// - An HTML comment on the line before a block says how to run it: `<!-- not run: <why> -->`, or
//   `<!-- repeat until shown: <why> -->` for a block whose answers come from work done in the background (run
//   again until every answer matches, for a few seconds).

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface Command {
  /** The command as written (continuation lines included). */
  text: string;
  /** Its first line's number in the file (1-based). */
  line: number;
  /** The answer shown under it (the `# ` lines, without `# `), or null when none is shown. */
  shown: string | null;
}

export interface Block {
  line: number;
  /** The nearest heading above it. */
  heading: string;
  commands: Command[];
  /** Why it is not run, when marked so. */
  notRun: string | null;
  /** Marked to be repeated until its answers match (work done in the background). */
  repeat: boolean;
}

const FENCE = /^(\s*)```sh\s*$/;
const MARK = /^<!--\s*(not run|repeat until shown):\s*(.+?)\s*-->$/;

/** Every ```sh block of a markdown text, with its commands and shown answers. */
export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = FENCE.exec(line);
    if (!fence) continue;
    const indent = fence[1]!.length;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const mark = before >= 0 ? MARK.exec(lines[before]!.trim()) : null;
    const body: { text: string; line: number }[] = [];
    let end = i + 1;
    for (; end < lines.length && lines[end]!.trim() !== '```'; end++) {
      const text = lines[end]!.slice(indent);
      if (/^#{2,6} /.test(lines[end]!))
        throw new Error(`line ${i + 1}: the sh block is not closed before the heading at ${end + 1}`);
      body.push({ text, line: end + 1 });
    }
    if (end === lines.length) throw new Error(`line ${i + 1}: the sh block is not closed`);
    const commands = commandsOf(body);
    // An answer shown without its request could not be checked: every block has a command, or says why not.
    if (commands.length === 0 && !mark) throw new Error(`line ${i + 1}: the sh block has no command`);
    blocks.push({
      line: i + 1,
      heading,
      commands,
      notRun: mark?.[1] === 'not run' ? mark[2]! : null,
      repeat: mark?.[1] === 'repeat until shown',
    });
    i = end;
  }
  return blocks;
}

function commandsOf(body: { text: string; line: number }[]): Command[] {
  const commands: Command[] = [];
  let current: Command | null = null;
  let open = false;
  for (const { text, line } of body) {
    if (open) {
      current!.text += `\n${text}`;
      open = continues(current!.text);
      continue;
    }
    if (text.trim() === '') {
      // A blank line ends the answer: a `#` line after it says what follows.
      current = null;
      continue;
    }
    if (text.startsWith('#')) {
      if (!current) continue;
      const answer = text.replace(/^# ?/, '');
      current.shown = current.shown === null ? answer : `${current.shown}\n${answer}`;
      continue;
    }
    current = { text, line, shown: null };
    commands.push(current);
    open = continues(text);
  }
  if (open) throw new Error(`line ${current!.line}: the command's quotes are not closed`);
  return commands;
}

/** Whether a command goes on past its last line: an open quote, or a trailing backslash. */
export function continues(text: string): boolean {
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') i++;
    else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      // A comment runs to the end of its line.
      const eol = text.indexOf('\n', i);
      if (eol < 0) break;
      i = eol;
    }
  }
  return quote !== null || /\\$/.test(text);
}

// ---- Shown answers: JSON with `...` ----

export type Shown =
  | { kind: 'object'; members: [string, Shown][]; open: boolean }
  | { kind: 'array'; items: (Shown | 'gap')[] }
  | { kind: 'string'; value: string }
  | { kind: 'prefix'; value: string }
  | { kind: 'literal'; value: number | boolean | null }
  | { kind: 'any' };

/** A shown answer parsed; a fragment (`"data":...`) is an open object of its members, with `fragment` set. */
export function parseShown(text: string): { shown: Shown; fragment: boolean } {
  const trimmed = text.trim();
  const fragment = trimmed.startsWith('"');
  const p = new ShownParser(fragment ? `{${trimmed},...}` : trimmed);
  const shown = p.value();
  p.end();
  return { shown, fragment };
}

class ShownParser {
  private i = 0;
  constructor(private readonly s: string) {}

  private fail(what: string): never {
    throw new Error(
      `cannot read the shown answer at ${this.i} (${what}): ${this.s.slice(Math.max(0, this.i - 30), this.i + 30)}`,
    );
  }
  private skip(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  private eat(token: string): boolean {
    this.skip();
    if (this.s.startsWith(token, this.i)) {
      this.i += token.length;
      return true;
    }
    return false;
  }
  end(): void {
    this.skip();
    if (this.i !== this.s.length) this.fail('text after the answer');
  }
  value(): Shown {
    if (this.eat('...')) return { kind: 'any' };
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') {
      const value = this.string();
      return value.endsWith('...') ? { kind: 'prefix', value: value.slice(0, -3) } : { kind: 'string', value };
    }
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.s.slice(this.i));
    if (!m) this.fail('a value');
    this.i += m[1]!.length;
    return { kind: 'literal', value: JSON.parse(m[1]!) as number | boolean | null };
  }
  private string(): string {
    const m = /^"(?:[^"\\\n]|\\.)*"/.exec(this.s.slice(this.i));
    if (!m) this.fail('a string, on one line (cut a long one with "...")');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }
  private object(): Shown {
    this.eat('{');
    const members: [string, Shown][] = [];
    let open = false;
    if (this.eat('}')) return { kind: 'object', members, open };
    do {
      if (this.eat('...')) {
        open = true;
        continue;
      }
      this.skip();
      const key = this.string();
      if (!this.eat(':')) this.fail("':'");
      members.push([key, this.value()]);
    } while (this.eat(','));
    if (!this.eat('}')) this.fail("'}'");
    return { kind: 'object', members, open };
  }
  private array(): Shown {
    this.eat('[');
    const items: (Shown | 'gap')[] = [];
    if (this.eat(']')) return { kind: 'array', items };
    do items.push(this.eat('...') ? 'gap' : this.value());
    while (this.eat(','));
    if (!this.eat(']')) this.fail("']'");
    return { kind: 'array', items };
  }
}

// ---- Values the server makes ----

/** Ids the server makes: shown, each matches any id of its kind, and is that id for the rest of the run. */
const ID_KINDS: RegExp[] = [
  /^[0-9a-f]{32}$/,
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/,
  // A page token: base64url of a JSON array.
  /^Wz[\w-]+$/,
  ...['wh', 'whsec', 'exec', 'corr', 'step', 'evt', 'mk', 'mt', 'mws', 'mwt'].map((p) => new RegExp(`^${p}_[\\w+/=-]+$`)),
];
const idKind = (s: string): RegExp | undefined => ID_KINDS.find((k) => k.test(s));
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** A time in ms since the epoch (2001 to 2286). */
const isMs = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 1e12 && v < 1e13;

/** The ids learned so far: each shown id and the real one it stands for. */
export class Bindings {
  readonly shownToReal = new Map<string, string>();
  readonly realToShown = new Map<string, string>();

  /** A text with every learned id written as its real one. */
  apply(text: string): string {
    let out = text;
    // The longest first: an id may contain another (a step id holds its execution's).
    for (const shown of [...this.shownToReal.keys()].sort((a, b) => b.length - a.length))
      out = out.split(shown).join(this.shownToReal.get(shown)!);
    return out;
  }
  commit(learned: Map<string, string>): void {
    for (const [shown, real] of learned) {
      this.shownToReal.set(shown, real);
      this.realToShown.set(real, shown);
    }
  }
}

/** Where a shown answer differs from the real one, or null when it matches; `learned` gets the ids it learns. */
export function compareShown(
  text: string,
  actual: unknown,
  bindings: Bindings,
): { mismatch: string | null; learned: Map<string, string> } {
  const { shown, fragment } = parseShown(bindings.apply(text));
  const m = new Matcher(bindings);
  if (!fragment) {
    const mismatch = m.match(shown, actual, '');
    return { mismatch, learned: mismatch ? new Map() : m.learned };
  }
  // A fragment: the first object of the answer (depth first) that has its members.
  let closest: string | null = null;
  const keys = shown.kind === 'object' ? shown.members.map(([k]) => k) : [];
  for (const [path, candidate] of objectsIn(actual, '')) {
    const attempt = new Matcher(bindings);
    const mismatch = attempt.match(shown, candidate, path);
    if (!mismatch) return { mismatch: null, learned: attempt.learned };
    // Said of the first object with every member shown, where the values differ.
    if (closest === null && keys.every((k) => Object.hasOwn(candidate as object, k))) closest = mismatch;
  }
  return { mismatch: closest ?? 'no object of the answer has the members shown', learned: new Map() };
}

function* objectsIn(v: unknown, path: string): Generator<[string, unknown]> {
  if (Array.isArray(v)) for (const [i, x] of v.entries()) yield* objectsIn(x, `${path}[${i}]`);
  else if (v && typeof v === 'object') {
    yield [path, v];
    for (const [k, x] of Object.entries(v)) yield* objectsIn(x, `${path}.${k}`);
  }
}

class Matcher {
  /** Ids learned by this comparison, kept only when it matches. */
  learned = new Map<string, string>();
  constructor(private readonly bindings: Bindings) {}

  private realOf(shown: string): string | undefined {
    return this.bindings.shownToReal.get(shown) ?? this.learned.get(shown);
  }
  private isReal(value: string): boolean {
    return this.bindings.realToShown.has(value) || [...this.learned.values()].includes(value);
  }

  /** Whether a shown string stands for this real one: the same, the same time's kind, or an id of its kind. */
  private sameString(shown: string, real: string): boolean {
    if (shown === real) return true;
    if (ISO_TIME.test(shown)) return ISO_TIME.test(real);
    const kind = idKind(shown);
    if (!kind || this.isReal(shown)) return false;
    const known = this.realOf(shown);
    if (known !== undefined) return known === real;
    if (!kind.test(real) || this.isReal(real)) return false;
    this.learned.set(shown, real);
    return true;
  }

  match(shown: Shown, actual: unknown, path: string): string | null {
    const at = path || '(the answer)';
    switch (shown.kind) {
      case 'any':
        return actual === undefined ? `${at}: missing` : null;
      case 'literal':
        if (isMs(shown.value) && isMs(actual)) return null;
        return Object.is(shown.value, actual)
          ? null
          : `${at}: shown ${JSON.stringify(shown.value)}, got ${JSON.stringify(actual)}`;
      case 'string':
        return typeof actual === 'string' && this.sameString(shown.value, actual)
          ? null
          : `${at}: shown ${JSON.stringify(shown.value)}, got ${JSON.stringify(actual)}`;
      case 'prefix':
        return typeof actual === 'string' && actual.startsWith(shown.value)
          ? null
          : `${at}: shown "${shown.value}...", got ${JSON.stringify(actual)}`;
      case 'array':
        if (!Array.isArray(actual)) return `${at}: shown an array, got ${JSON.stringify(actual)}`;
        return this.items(shown.items, actual, 0, 0, at);
      case 'object':
        return this.object(shown, actual, path);
    }
  }

  private object(shown: Extract<Shown, { kind: 'object' }>, actual: unknown, path: string): string | null {
    const at = path || '(the answer)';
    if (!actual || typeof actual !== 'object' || Array.isArray(actual))
      return `${at}: shown an object, got ${JSON.stringify(actual)}`;
    const real = actual as Record<string, unknown>;
    const used = new Set<string>();
    for (const [key, value] of shown.members) {
      const name = this.keyOf(key, real, used);
      if (name === undefined) return `${at}: no member ${JSON.stringify(key)} (members: ${Object.keys(real).join(', ')})`;
      used.add(name);
      const mismatch = this.match(value, real[name], `${path}.${name}`);
      if (mismatch) return mismatch;
    }
    if (!shown.open) {
      const extra = Object.keys(real).filter((k) => !used.has(k));
      if (extra.length) return `${at}: members not shown (add them, or "..."): ${extra.join(', ')}`;
    }
    return null;
  }

  /** The real member a shown key names: itself, or for a made id, the id it stands for (or the one of its kind). */
  private keyOf(key: string, real: Record<string, unknown>, used: Set<string>): string | undefined {
    if (Object.hasOwn(real, key)) return key;
    const known = this.realOf(key);
    if (known !== undefined) return Object.hasOwn(real, known) ? known : undefined;
    const kind = idKind(key);
    if (!kind) return undefined;
    const candidates = Object.keys(real).filter((k) => !used.has(k) && kind.test(k) && !this.isReal(k));
    if (candidates.length !== 1) return undefined;
    this.learned.set(key, candidates[0]!);
    return candidates[0];
  }

  /** Items from `i` (shown) and `j` (real) on: a gap takes any number of real items, the others match in order. */
  private items(shown: (Shown | 'gap')[], real: unknown[], i: number, j: number, at: string): string | null {
    if (i === shown.length) return j === real.length ? null : `${at}: ${real.length - j} more items than shown (add "...")`;
    const item = shown[i]!;
    if (item === 'gap') {
      let first: string | null = null;
      for (let k = j; k <= real.length; k++) {
        const saved = new Map(this.learned);
        const mismatch = this.items(shown, real, i + 1, k, at);
        if (!mismatch) return null;
        this.learned = saved;
        first ??= mismatch;
      }
      return first;
    }
    if (j === real.length) return `${at}: fewer items than shown (${real.length})`;
    const saved = new Map(this.learned);
    const mismatch = this.match(item, real[j], `${at}[${j}]`);
    if (mismatch) {
      this.learned = saved;
      return mismatch;
    }
    return this.items(shown, real, i + 1, j + 1, at);
  }
}

// ---- A shell to run them in ----

/** One bash process for a run of the examples, so what one command sets (H, M, T=$(...)) the next one has. */
export class Shell {
  private readonly proc: ChildProcessWithoutNullStreams;
  private out = '';
  private waiting: (() => void) | null = null;

  constructor(env: NodeJS.ProcessEnv, cwd: string) {
    this.proc = spawn('bash', ['--noprofile', '--norc'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const take = (d: Buffer) => {
      this.out += d.toString('utf8');
      this.waiting?.();
    };
    this.proc.stdout.on('data', take);
    this.proc.stderr.on('data', take);
  }

  /** Runs a command (stdin empty, stderr with stdout) and answers what it printed and its exit status. */
  async run(command: string, timeoutMs = 30_000): Promise<{ output: string; status: number }> {
    const marker = `\u001e${randomBytes(8).toString('hex')}`;
    this.out = '';
    this.proc.stdin.write(`{\n${command}\n} </dev/null 2>&1; printf '${marker}%d\\n' $?\n`);
    const end = Date.now() + timeoutMs;
    for (;;) {
      const at = this.out.indexOf(marker);
      if (at >= 0) {
        const status = Number(/^(\d+)/.exec(this.out.slice(at + marker.length))?.[1] ?? '-1');
        return { output: this.out.slice(0, at), status };
      }
      if (Date.now() > end || this.proc.exitCode !== null)
        throw new Error(`the command did not end in ${timeoutMs} ms:\n${command}\noutput so far: ${this.out}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  close(): void {
    this.proc.stdin.end();
    if (this.proc.exitCode === null) this.proc.kill();
  }
}
