// Our own JSON body parser, so that a body nested deeper than MARGINALIA_MAX_JSON_DEPTH is refused
// before any recursive code (parsing, prototype scanning, storing) can run out of stack on it.
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import sjson from 'secure-json-parse';
import { invalid } from '../errors.js';

/** The deepest nesting of objects and arrays in a JSON text, by one linear scan that skips strings. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

// Text the databases cannot keep as sent: a lone surrogate (SQLite and PostgreSQL store UTF-8, so it
// would come back changed) and NUL (PostgreSQL text cannot hold it; refused on SQLite too, so both
// behave the same). Either can only arrive as a \u escape (raw surrogate bytes are not UTF-8, raw
// control characters are not JSON), so bodies without such an escape skip the per-string check.
const MAY_HOLD_UNSTORABLE = /\\u(?:[dD][89a-fA-F]|0000)/;

class UnstorableText extends Error {}

function storable(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

function refuseUnstorable(this: unknown, key: string, value: unknown): unknown {
  if (!storable(key) || (typeof value === 'string' && !storable(value))) throw new UnstorableText();
  return value;
}

/**
 * The charset a Content-Type names, lowercased and unquoted, or null when it names none. Bodies are
 * read as UTF-8 (JSON's only interchange encoding, RFC 8259), so any other charset is refused rather
 * than silently misread.
 */
function charsetOf(contentType: string | undefined): string | null {
  if (!contentType?.includes(';')) return null;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return null;
}

/**
 * A preParsing hook: the charset is part of the Content-Type check, which comes before the body is
 * read (docs/api.md, "Wire format"). Callback style, like every hook on the request path: an async hook costs a
 * promise and a microtask per request.
 */
export function requireUtf8(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: RequestPayload,
  done: (err: Error | null, payload?: RequestPayload) => void,
): void {
  const charset = charsetOf(request.headers['content-type']);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    done(invalid(`Content-Type charset must be utf-8, got "${charset.slice(0, 40)}".`));
    return;
  }
  done(null, payload);
}

export function jsonBodyParser(maxDepth: number) {
  return (_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void): void => {
    let refusal: Error | null = null;
    if (body.trim() === '') refusal = invalid('The request body is empty; expected a JSON object with member data.');
    else if (nestingDepth(body) > maxDepth) refusal = invalid(`The request body nests deeper than ${maxDepth} levels.`);
    if (refusal) {
      done(refusal);
      return;
    }
    try {
      // `__proto__` and `constructor.prototype` keys are dropped like any other unknown member.
      const reviver = MAY_HOLD_UNSTORABLE.test(body) ? refuseUnstorable : null;
      done(null, sjson.parse(body, reviver, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch (err) {
      done(
        invalid(
          err instanceof UnstorableText
            ? 'The request body has a string with a NUL character or a lone surrogate; neither can be stored.'
            : 'The request body is not valid JSON.',
        ),
      );
    }
  };
}
