// Our own JSON body parser, so that a body nested deeper than MARGINALIA_MAX_JSON_DEPTH is refused
// before any recursive code (parsing, prototype scanning, storing) can run out of stack on it.
import type { FastifyRequest } from 'fastify';
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
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

// A surrogate can only arrive as a \u escape (raw surrogate bytes are not UTF-8 and decode to U+FFFD),
// so bodies without one skip the per-string check.
const MAY_HOLD_SURROGATE = /\\u[dD][89a-fA-F]/;

class LoneSurrogate extends Error {}

/** Refuses text that is not valid Unicode: stored, it would come back changed. */
function wellFormed(this: unknown, key: string, value: unknown): unknown {
  if (!key.isWellFormed() || (typeof value === 'string' && !value.isWellFormed())) throw new LoneSurrogate();
  return value;
}

export function jsonBodyParser(maxDepth: number) {
  return (_request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void): void => {
    if (body.trim() === '') return done(invalid('The request body is empty; expected a JSON object with member data.'));
    if (nestingDepth(body) > maxDepth) return done(invalid(`The request body nests deeper than ${maxDepth} levels.`));
    try {
      // `__proto__` and `constructor.prototype` keys are dropped like any other unknown member.
      const reviver = MAY_HOLD_SURROGATE.test(body) ? wellFormed : null;
      done(null, sjson.parse(body, reviver, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch (err) {
      if (err instanceof LoneSurrogate) return done(invalid('The request body has a string that is not valid Unicode (a lone surrogate).'));
      done(invalid('The request body is not valid JSON.'));
    }
  };
}
