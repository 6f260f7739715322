// Mail templates (docs/operations.md, "Email"): files an operator can replace, with a small placeholder syntax of
// our own, so that no template engine is needed and user text can never reach HTML unescaped.
//
//   {{name}}                 the value; in an HTML template always escaped (there is no unescaped form)
//   {{#name}} ... {{/name}}  a list: the inside once per item (whose members come first, then the outer ones);
//                            any other value: the inside once when it is truthy, else nothing
//   {{^name}} ... {{/name}}  the inside once when the value is falsy or an empty list
//
// Names are letters, digits and dots are not paths: a name is looked up in the item, then outwards.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shipped templates (templates/email/ at the package root: one folder above src/ and dist/). */
export const SHIPPED_TEMPLATES_DIR = fileURLToPath(new URL('../../templates/email/', import.meta.url));

export const TEMPLATE_FILES = ['digest.subject.txt', 'digest.txt', 'digest.html', 'unsubscribed.html'] as const;
export type TemplateFile = (typeof TEMPLATE_FILES)[number];

export type Model = { readonly [name: string]: unknown };

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export class TemplateError extends Error {}

type Node = string | { kind: 'value'; name: string } | { kind: 'section' | 'inverted'; name: string; inside: Node[] };

const STANDALONE = /^[ \t]*(\{\{\s*[#^/]\s*[A-Za-z][A-Za-z0-9_]*\s*\}\})[ \t]*\r?\n/gm;
const TAG = /\{\{\s*([#^/]?)\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** A template's text as a tree; an unclosed or mismatched section is refused, naming it. */
export function parseTemplate(source: string, file = 'template'): Node[] {
  // A section tag alone on its line takes the line with it, so a text template's lists leave no blank lines.
  const text = source.replace(STANDALONE, '$1');
  const root: Node[] = [];
  const stack: { name: string; nodes: Node[] }[] = [{ name: '', nodes: root }];
  let at = 0;
  for (const m of text.matchAll(TAG)) {
    const top = stack[stack.length - 1]!;
    if (m.index > at) top.nodes.push(text.slice(at, m.index));
    at = m.index + m[0].length;
    const [, sigil, name] = m as unknown as [string, string, string];
    if (sigil === '') top.nodes.push({ kind: 'value', name });
    else if (sigil === '/') {
      if (stack.length === 1 || top.name !== name) throw new TemplateError(`${file}: {{/${name}}} closes no open {{#${name}}}.`);
      stack.pop();
    } else {
      const inside: Node[] = [];
      top.nodes.push({ kind: sigil === '#' ? 'section' : 'inverted', name, inside });
      stack.push({ name, nodes: inside });
    }
  }
  if (stack.length > 1) throw new TemplateError(`${file}: {{#${stack[stack.length - 1]!.name}}} is never closed.`);
  if (at < text.length) root.push(text.slice(at));
  return root;
}

const lookup = (scopes: readonly Model[], name: string): unknown => {
  for (let i = scopes.length - 1; i >= 0; i--) if (Object.hasOwn(scopes[i]!, name)) return scopes[i]![name];
  return undefined;
};

const falsy = (v: unknown) => v == null || v === false || v === '' || (Array.isArray(v) && v.length === 0);

function renderNodes(nodes: readonly Node[], scopes: Model[], html: boolean): string {
  let out = '';
  for (const node of nodes) {
    if (typeof node === 'string') out += node;
    else if (node.kind === 'value') {
      const v = lookup(scopes, node.name);
      const text = v == null ? '' : String(v);
      out += html ? escapeHtml(text) : text;
    } else {
      const v = lookup(scopes, node.name);
      if (node.kind === 'inverted') {
        if (falsy(v)) out += renderNodes(node.inside, scopes, html);
      } else if (Array.isArray(v)) {
        for (const item of v) out += renderNodes(node.inside, [...scopes, (item ?? {}) as Model], html);
      } else if (!falsy(v)) out += renderNodes(node.inside, typeof v === 'object' ? [...scopes, v as Model] : scopes, html);
    }
  }
  return out;
}

/** A parsed template, rendered for HTML (every value escaped) or as text (values as they are). */
export class Template {
  private readonly nodes: Node[];
  constructor(
    readonly text: string,
    readonly html: boolean,
    file?: string,
  ) {
    this.nodes = parseTemplate(text, file);
  }
  render(model: Model): string {
    return renderNodes(this.nodes, [model], this.html);
  }
}

export type Templates = Readonly<Record<TemplateFile, Template>>;

/**
 * The templates, each from `dir` when it has that file (MARGINALIA_EMAIL_TEMPLATES_DIR), else the shipped one.
 * Read and parsed once, at start: a broken template stops the start with its name, not a mail later.
 */
export function loadTemplates(dir: string | null): Templates {
  const out: Partial<Record<TemplateFile, Template>> = {};
  for (const file of TEMPLATE_FILES) {
    let text: string | null = null;
    if (dir !== null) {
      try {
        text = readFileSync(join(dir, file), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    text ??= readFileSync(join(SHIPPED_TEMPLATES_DIR, file), 'utf8');
    out[file] = new Template(text, file.endsWith('.html'), file);
  }
  return out as Templates;
}
