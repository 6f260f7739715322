// One setting, declared once: its variable, how its text becomes a value (and when it is refused),
// its default and what it means. Parsing, validation and the configuration reference
// (docs/configuration.md) all come from these declarations.

export interface Setting<T> {
  /** The environment variable. */
  name: string;
  /** The value when the variable is unset or empty. */
  default: T;
  /** The default as the reference shows it. */
  shownDefault: string;
  /** One or two sentences for the reference. */
  meaning: string;
  /** The value of a set variable, or why it is refused (the message names the variable). */
  parse(raw: string): { value: T } | { error: string };
}

type Declared<T> = Omit<Setting<T>, 'shownDefault'> & { shownDefault?: string };
const declare = <T>(s: Declared<T>): Setting<T> => ({ ...s, shownDefault: s.shownDefault ?? `\`${String(s.default)}\`` });

/** A whole number within bounds. */
export function integer(name: string, fallback: number, min: number, max: number, meaning: string): Setting<number> {
  return declare<number>({
    name,
    default: fallback,
    meaning,
    parse: (raw) =>
      /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
        ? { value: Number(raw) }
        : { error: `${name} must be a whole number from ${min} to ${max}, got "${raw}".` },
  });
}

/** One of a few words; `normalize` says how the variable's case is read. */
export function oneOf<T extends string>(
  name: string,
  fallback: T,
  values: readonly T[],
  normalize: (raw: string) => string,
  meaning: string,
): Setting<T> {
  return declare<T>({
    name,
    default: fallback,
    meaning,
    parse: (raw) => {
      const value = values.find((v) => v === normalize(raw));
      return value ? { value } : { error: `${name} must be one of ${values.join(', ')}, got "${raw}".` };
    },
  });
}

/** Free text checked by `check`, which returns the refusal or null. */
export function text<T extends string | null>(
  name: string,
  fallback: T,
  meaning: string,
  check: (raw: string) => string | null = () => null,
): Setting<string | T> {
  return declare<string | T>({
    name,
    default: fallback,
    shownDefault: fallback === null ? '(unset)' : `\`${fallback}\``,
    meaning,
    parse: (raw) => {
      const error = check(raw);
      return error === null ? { value: raw } : { error };
    },
  });
}

/**
 * The same setting, its value converted to what the program uses (a database target, a number); the
 * reference still shows the variable's text, and a refusal is the setting's own.
 */
export function converted<T, U>(setting: Setting<T>, convert: (value: T) => U): Setting<U> {
  return {
    ...setting,
    default: convert(setting.default),
    parse: (raw) => {
      const parsed = setting.parse(raw);
      return 'error' in parsed ? parsed : { value: convert(parsed.value) };
    },
  };
}

/** Where docs/configuration.md's table begins and ends (npm run docs:config rewrites what is between). */
export const TABLE_START = '<!-- settings table: written by npm run docs:config from src/config/index.ts -->';
export const TABLE_END = '<!-- end of settings table -->';

/** The reference table of the given settings, in declaration order (docs/configuration.md holds it). */
export function settingsTable(settings: readonly Setting<unknown>[]): string {
  return [
    '| Variable | Default | Meaning |',
    '|---|---|---|',
    ...settings.map((s) => `| \`${s.name}\` | ${s.shownDefault} | ${s.meaning} |`),
  ].join('\n');
}
