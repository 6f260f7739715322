// The console's one way to write HTML: the html`...` tag escapes every value put into it, unless the value is
// markup the tag itself made (or raw(), for text already escaped, such as a search snippet). A page cannot
// forget to escape: it would have to ask for raw().

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup: written as it is by html`...`. */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type Value = Markup | string | number | boolean | null | undefined | readonly Value[];

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Text that is already markup (escaped where it needs to be); only for what this code made or checked. */
export const raw = (text: string): Markup => new Markup(text);

function written(value: Value): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(written).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += written(values[i]!) + strings[i + 1]!;
  return new Markup(out);
}

/** A path under /admin with each part encoded: ids may hold any character. */
export const adminPath = (...parts: string[]): string => `/admin/${parts.map(encodeURIComponent).join('/')}`;

/** A query string from the members that have a value. */
export function query(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v != null && v !== '') search.set(k, v);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export const isoTime = (ms: number | null | undefined): string => (ms == null ? '' : new Date(ms).toISOString());
