// Replays the original service's documented examples (../shared/vendor/examples-v1.json and -v2.json, extracted from
// its public reference) and compares each answer with the one its page documents: the HTTP status, the
// envelope, `status` and `message` exactly, the kind of `data` (object, array, null or absent), every
// documented member with its documented type, and per-item entries with their `success`, `message`
// and other values. Members a page does not show may be added; documented ones may not be missing.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { REPO } from './server-process.js';

export const EXAMPLES_V1 = join(REPO, '..', 'shared', 'vendor', 'examples-v1.json');
export const EXAMPLES_V2 = join(REPO, '..', 'shared', 'vendor', 'examples-v2.json');

export interface VendorExample {
  name: string;
  /** The request as printed, parsed leniently where the page's JSON is not strict. */
  body: Record<string, unknown>;
}

export interface DocumentedAnswer {
  kind: 'success' | 'partial' | 'error';
  name: string;
  body: Record<string, any>;
}

export interface VendorPage {
  file: string;
  endpoint: string;
  requests: VendorExample[];
  responses: DocumentedAnswer[];
  /** The answers a page prints in its side panel (<ResponseExample>), parsed where the page's JSON is strict. */
  responseExamples?: { body?: Record<string, any> }[];
}

/** The pages, or null when the vendor folder is not beside this clone. */
export function vendorPages(file = EXAMPLES_V1): VendorPage[] | null {
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, 'utf8')) as { pages: VendorPage[] }).pages;
}

/** How one example's answer is compared; where a page cannot be followed as printed, why (a note). */
export interface Expectation {
  /** Which documented answer applies (index into the page's responses); default: its first success. */
  answer?: number;
  /** The answer the page prints in its side panel instead (index into its responseExamples). */
  responseExample?: number;
  /** A page's per-item key -> the key this request's answer has (the page names another than its request). */
  keyMap?: Record<string, string>;
  /** Entry members compared by type only: ids the server makes, or a page's own typo. */
  loose?: readonly string[];
  /** Per-item keys the server makes (generated ids): compared by count, each entry with the page's one. */
  generatedKeys?: boolean;
  /** `data` must equal the documented data exactly (where the page's values follow from the request). */
  exact?: boolean;
  /** Paths (`data[].createdAt`) whose type differs by a kept decision (docs/decisions.md). */
  kept?: readonly string[];
  /** Members that map ids to values (notifyUsers): compared as maps, not as records with those keys. */
  maps?: readonly string[];
  /**
   * Documented members not compared (paths such as `data[].pageInfo`, `data[].comments[].reactionAnnotations`):
   * what only the original's browser SDK captures or assigns, or what a later feature adds; each example
   * that uses it says why in its note (docs/decisions.md lists them).
   */
  unshown?: readonly string[];
  /**
   * The answer is a last page: the next-page token the page shows beside data (an answer with more to
   * come) may be absent, as it is whenever no more results remain (docs/decisions.md).
   */
  lastPage?: boolean;
  /** Where the page cannot be followed as printed, what was done and why (the replay's table shows it). */
  note?: string;
  /**
   * The page's path, for a page of the original service's other products: the documented answer is not
   * the page's but 501 UNIMPLEMENTED naming that path (docs/api.md, "Not available on a self-hosted server").
   */
  unavailable?: string;
}

/** The members beside data that carry the next page's token. */
const NEXT_PAGE_MEMBERS = ['pageToken', 'nextPageToken'];

export interface Outcome {
  differences: string[];
  /** Kept decisions met on the way (a documented type that docs/decisions.md keeps otherwise). */
  kept: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const kindOf = (v: unknown): string =>
  v === undefined ? 'absent' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/** Values that stand for real ones on the pages: 16- or 17-digit ids, 32-hex internal ids. */
const REAL_VALUE = /^(\d{16,17}|[0-9a-f]{32})$/;

/** An object answered per item: every value is an entry with a boolean `success`. */
const isKeyed = (v: unknown): v is Record<string, Record<string, Json>> =>
  kindOf(v) === 'object' &&
  Object.keys(v as object).length > 0 &&
  Object.values(v as object).every((e) => kindOf(e) === 'object' && typeof (e as { success?: unknown }).success === 'boolean');

/** Every string and number in a request's data, as strings: the ids it names. */
function namedIn(v: unknown, into = new Set<string>()): Set<string> {
  if (typeof v === 'string' || typeof v === 'number') into.add(String(v));
  else if (Array.isArray(v)) for (const x of v) namedIn(x, into);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) namedIn(x, into);
  return into;
}

/** Compares an answer with the documented one. */
export function compareAnswer(
  request: Record<string, any>,
  documented: DocumentedAnswer,
  actual: { status: number; json: any },
  x: Expectation = {},
): Outcome {
  const out: Outcome = { differences: [], kept: [] };
  const diff = (what: string) => out.differences.push(what);
  if (x.unavailable !== undefined) {
    if (actual.status !== 501) diff(`HTTP ${actual.status}, a page not available here answers 501`);
    const expected = unavailableAnswer(x.unavailable);
    if (!isDeepStrictEqual(actual.json, expected))
      diff(`${JSON.stringify(actual.json)?.slice(0, 300)}, not ${JSON.stringify(expected)}`);
    return out;
  }
  const doc = documented.body;
  const expectedStatus = typeof doc.statusCode === 'number' ? doc.statusCode : 200;
  if (actual.status !== expectedStatus) diff(`HTTP ${actual.status}, the page shows ${expectedStatus}`);
  const got = actual.json;
  if (kindOf(got) !== 'object') {
    diff(`the answer is not a JSON object: ${String(got)}`);
    return out;
  }
  // The envelope: result{status, message, data}, or (users/data/delete's 202) those members at the top.
  const [docEnvelope, gotEnvelope] = 'result' in doc ? [doc.result, got.result] : [doc, got];
  if (isBare(doc)) {
    bareResult(doc.result, got, x, request, out);
    return out;
  }
  if (kindOf(gotEnvelope) !== 'object') {
    diff(`no ${'result' in doc ? 'result' : 'envelope'}: ${JSON.stringify(got).slice(0, 300)}`);
    return out;
  }
  if ('result' in doc === false && 'result' in got) diff('a result wrapper the page does not show');
  for (const member of ['status', 'message', 'statusCode'])
    if (member in docEnvelope && docEnvelope[member] !== gotEnvelope[member])
      diff(`${member} ${JSON.stringify(gotEnvelope[member])}, the page shows ${JSON.stringify(docEnvelope[member])}`);
  if (kindOf(docEnvelope.data) !== kindOf(gotEnvelope.data))
    diff(`data is ${kindOf(gotEnvelope.data)}, the page shows ${kindOf(docEnvelope.data)}`);
  else if (x.exact) {
    try {
      assert.deepEqual(gotEnvelope.data, docEnvelope.data);
    } catch {
      diff(`data ${JSON.stringify(gotEnvelope.data)}, the page shows ${JSON.stringify(docEnvelope.data)}`);
    }
  } else {
    const named = namedIn(request.data ?? request);
    const elementwise = Array.isArray(request.data?.annotationIds) || Array.isArray(request.data?.commentIds);
    const walk = new Shape(x, out, named, elementwise);
    if (isKeyed(docEnvelope.data)) walk.keyed(docEnvelope.data, gotEnvelope.data, 'data');
    else walk.value(docEnvelope.data, gotEnvelope.data, 'data');
  }
  // Members beside data (nextPageToken): there, with their type.
  for (const [member, value] of Object.entries(docEnvelope))
    if (x.lastPage && NEXT_PAGE_MEMBERS.includes(member) && gotEnvelope[member] === undefined) continue;
    else if (!['status', 'message', 'data', 'statusCode'].includes(member) && kindOf(gotEnvelope[member]) !== kindOf(value))
      diff(`${member} is ${kindOf(gotEnvelope[member])}, the page shows ${kindOf(value)}`);
  return out;
}

/** A page that prints its members inside `result` without status, message or data (the approval workflow pages). */
const isBare = (doc: Record<string, any>): boolean =>
  kindOf(doc.result) === 'object' && !('data' in doc.result) && !(doc.result.status === 'success' && 'message' in doc.result);

/**
 * A bare result: its members are the answer's data. With `exact`, every documented value is equal (`loose`
 * members by kind, `unshown` paths not at all, arrays entry by entry); otherwise compared as data is, by shape.
 * Members the page does not show may be added.
 */
function bareResult(doc: Record<string, any>, got: any, x: Expectation, request: Record<string, any>, out: Outcome): void {
  const diff = (what: string) => out.differences.push(what);
  if (kindOf(got.result) !== 'object') {
    diff(`no result: ${JSON.stringify(got).slice(0, 300)}`);
    return;
  }
  if (typeof got.result.status === 'string' && typeof got.result.message === 'string')
    diff('a status/message envelope the page does not show');
  if (!x.exact) {
    new Shape(x, out, namedIn(request.data ?? request), false).value(doc, got.result, 'result');
    return;
  }
  const walk = (d: unknown, g: unknown, path: string): void => {
    const generic = path.replace(/\[\d+\]/g, '[]');
    if (x.unshown?.includes(generic)) return;
    const member = path.slice(path.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
    if (x.loose?.includes(member) || kindOf(d) !== kindOf(g) || (kindOf(d) !== 'object' && kindOf(d) !== 'array')) {
      if (kindOf(d) !== kindOf(g))
        diff(`${path}: ${kindOf(g)}, the page shows ${kindOf(d)} (${JSON.stringify(d)?.slice(0, 80)})`);
      else if (!x.loose?.includes(member) && d !== g) diff(`${path}: ${JSON.stringify(g)}, the page shows ${JSON.stringify(d)}`);
      return;
    }
    if (Array.isArray(d)) {
      const mine = g as unknown[];
      if (mine.length !== d.length) diff(`${path}: ${mine.length} entries, the page shows ${d.length}`);
      for (const [i, e] of d.entries()) if (i < mine.length) walk(e, mine[i], `${path}[${i}]`);
      return;
    }
    for (const [k, v] of Object.entries(d as object)) {
      if (x.unshown?.includes(`${generic}.${k}`)) continue;
      if (!Object.hasOwn(g as object, k)) diff(`${path}.${k}: missing`);
      else walk(v, (g as Record<string, unknown>)[k], `${path}.${k}`);
    }
  };
  walk(doc, got.result, 'result');
}

/** The walk of a documented value against the answer's. */
class Shape {
  constructor(
    private readonly x: Expectation,
    private readonly out: Outcome,
    private readonly named: Set<string>,
    private readonly elementwise: boolean,
  ) {}

  private diff(path: string, what: string): void {
    this.out.differences.push(`${path}: ${what}`);
  }

  /** A documented value: its kind, and within objects and arrays every documented member. */
  value(doc: unknown, got: unknown, path: string): void {
    const generic = path.replace(/\[\d+\]/g, '[]');
    if (this.x.unshown?.includes(generic)) return;
    if (kindOf(doc) !== kindOf(got)) {
      if (this.x.kept?.includes(generic)) {
        if (!this.out.kept.includes(generic)) this.out.kept.push(generic);
      } else this.diff(path, `${kindOf(got)}, the page shows ${kindOf(doc)} (${JSON.stringify(doc)?.slice(0, 80)})`);
      return;
    }
    if (Array.isArray(doc)) {
      this.array(doc, got as unknown[], path);
      return;
    }
    if (kindOf(doc) !== 'object') return;
    const member = path.slice(path.lastIndexOf('.') + 1);
    if (this.x.maps?.includes(member)) {
      const docKinds = new Set(Object.values(doc as object).map(kindOf));
      for (const [k, v] of Object.entries(got as object))
        if (!docKinds.has(kindOf(v))) this.diff(`${path}.${k}`, `${kindOf(v)}, the page's values are ${[...docKinds]}`);
      return;
    }
    for (const [k, v] of Object.entries(doc as object)) {
      if (this.x.unshown?.includes(`${generic}.${k}`)) continue;
      if (!Object.hasOwn(got as object, k)) this.diff(`${path}.${k}`, 'missing');
      else this.value(v, (got as Record<string, unknown>)[k], `${path}.${k}`);
    }
  }

  /**
   * An array. With ids asked for (annotationIds, commentIds) the answer has one entry per id, in that
   * order, and is compared entry by entry; otherwise a page's entries are examples of the answer's,
   * and each entry of the answer is compared with the first documented one.
   */
  private array(doc: unknown[], got: unknown[], path: string): void {
    if (this.elementwise) {
      if (got.length < doc.length) this.diff(path, `${got.length} entries, the page shows ${doc.length}`);
      for (const [i, d] of doc.entries()) if (i < got.length) this.value(d, got[i], `${path}[${i}]`);
      return;
    }
    const example = doc.find((d) => d !== null);
    if (example === undefined) return;
    if (got.length === 0) this.diff(path, 'empty, the page shows entries');
    for (const [i, g] of got.entries()) this.value(example, g, `${path}[${i}]`);
  }

  /**
   * Per-item entries: those the page shows succeeding, and those of ids the request names, must be
   * there as documented; any other entry must be of a kind the page documents (the same `success`).
   */
  keyed(doc: Record<string, Record<string, Json>>, got: unknown, path: string): void {
    if (!isKeyedOrEmpty(got)) {
      this.diff(path, `not per-item entries: ${JSON.stringify(got)?.slice(0, 200)}`);
      return;
    }
    const pageKeys = Object.keys(doc);
    if (this.x.generatedKeys) {
      const mine = Object.keys(got);
      if (mine.length !== pageKeys.length) this.diff(path, `${mine.length} entries, the page shows ${pageKeys.length}`);
      for (const [i, k] of mine.entries()) this.entry(doc[pageKeys[Math.min(i, pageKeys.length - 1)]!]!, got[k]!, `${path}.${k}`);
      return;
    }
    const ours = (k: string) => this.x.keyMap?.[k] ?? k;
    for (const k of pageKeys) {
      const entry = doc[k]!;
      const key = ours(k);
      const required = entry.success === true || this.named.has(key);
      if (!Object.hasOwn(got, key)) {
        if (required) this.diff(`${path}.${key}`, 'missing');
        continue;
      }
      // A page's key that stands for the request's: a value naming it (the entry's id) names the request's.
      this.entry(entry, got[key]!, `${path}.${key}`, key === k ? undefined : [k, key]);
    }
    const documented = new Set(pageKeys.map(ours));
    for (const [key, entry] of Object.entries(got)) {
      if (documented.has(key)) continue;
      const kindKey = Object.keys(doc).find((k) => doc[k]!.success === entry.success);
      if (kindKey === undefined)
        this.diff(`${path}.${key}`, `an entry of a kind the page does not show: ${JSON.stringify(entry)}`);
      else this.entry(doc[kindKey]!, entry, `${path}.${key}`, [kindKey, key]);
    }
  }

  /**
   * One entry: every documented member; values as documented, except those that stand for real ones.
   * Compared for another key (`as`: the page's key and the answer's), a value naming the page's key
   * names the answer's (an entry's `id`).
   */
  private entry(doc: Record<string, Json>, got: Record<string, Json>, path: string, as?: [string, string]): void {
    for (const [member, documented] of Object.entries(doc)) {
      const value = as && String(documented) === as[0] ? (typeof documented === 'number' ? Number(as[1]) : as[1]) : documented;
      const at = `${path}.${member}`;
      if (this.x.unshown?.includes(at)) continue;
      if (!Object.hasOwn(got, member)) {
        this.diff(at, 'missing');
        continue;
      }
      const mine = got[member];
      const byType = this.x.loose?.includes(member) || (typeof value === 'string' && REAL_VALUE.test(value));
      if (byType || (value !== null && typeof value === 'object')) this.value(value, mine, at);
      else if (mine !== value) this.diff(at, `${JSON.stringify(mine)}, the page shows ${JSON.stringify(value)}`);
    }
  }
}

const isKeyedOrEmpty = (v: unknown): v is Record<string, Record<string, Json>> =>
  isKeyed(v) || (kindOf(v) === 'object' && Object.keys(v as object).length === 0);

/**
 * A request's body with every string replaced as `replace` says (placeholders that cannot be real); a member
 * replaced by undefined is left out of the request (JSON has no undefined).
 */
export function substituted<T>(body: T, replace: Readonly<Record<string, string | undefined>>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return Object.hasOwn(replace, v) ? replace[v] : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(body) as T;
}

/** The one answer of a page not available on a self-hosted server, at `path`. */
export const unavailableAnswer = (path: string) => ({
  error: { message: `${path} is not available on a self-hosted server.`, status: 'UNIMPLEMENTED' },
});
