// The bound and the validity of ThreadPageCache (services/thread-pages.ts): pages are answered only
// under the versions they were read under, and past the bound the page used longest ago goes first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIT_EVERY_MS } from '../../src/services/admission.js';
import { ThreadPageCache } from '../../src/services/thread-pages.js';

const MB = 1024 * 1024;
const page = (bytes: number) => ({ data: Buffer.alloc(bytes, 'x'), nextPageToken: null });
const at = (documentVersion: number, profileVersion = 1) => ({ documentVersion, profileVersion, credentialsVersion: 7 });
const current = (cache: ThreadPageCache, key: string, versions = at(1)) => cache.current(key, versions) as { page?: unknown };

test('a page is answered only while both versions are those it was read under', () => {
  const cache = new ThreadPageCache(1);
  cache.keep('k', at(1), page(10));
  assert.ok(current(cache, 'k').page, 'same versions');
  assert.equal(current(cache, 'k', at(1, 2)).page, undefined, 'profiles moved');
  cache.keep('k', at(1, 2), page(10));
  assert.ok(current(cache, 'k', at(1, 2)).page, 'the page read after it took its place');
  assert.equal(current(cache, 'k', at(2, 2)).page, undefined, 'the document moved');
});

test('past the bound the page used longest ago goes first; a page larger than the bound is not kept', () => {
  const cache = new ThreadPageCache(1);
  const third = Math.floor(MB / 3) - 300; // each entry also counts about 200 bytes of objects
  cache.keep('a', at(1), page(third));
  cache.keep('b', at(1), page(third));
  cache.keep('c', at(1), page(third));
  assert.ok(current(cache, 'a').page, 'a used again: now the newest');
  cache.keep('d', at(1), page(third));
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((k) => cache.has(k)),
    [true, false, true, true],
  );
  cache.keep('huge', at(1), page(MB + 1));
  assert.equal(cache.has('huge'), false);
  assert.deepEqual(
    ['a', 'c', 'd'].map((k) => cache.has(k)),
    [true, true, true],
    'and nothing was let go for it',
  );
  cache.keep('a', at(2), page(third));
  assert.ok(current(cache, 'a', at(2)).page, 'kept again under new versions');
});

test('once full, a new page comes in at most once per ADMIT_EVERY_MS; a page held is replaced at once', () => {
  let now = 1_000;
  const cache = new ThreadPageCache(1, () => now);
  const half = Math.floor(MB / 2) - 300;
  cache.keep('a', at(1), page(half));
  cache.keep('b', at(1), page(half));
  cache.keep('c', at(1), page(half));
  assert.deepEqual(
    ['a', 'b', 'c'].map((k) => cache.has(k)),
    [false, true, true],
    'a went for c: full',
  );
  cache.keep('d', at(1), page(half));
  assert.deepEqual(
    ['b', 'c', 'd'].map((k) => cache.has(k)),
    [false, true, true],
    'the first since full comes in',
  );
  cache.keep('e', at(1), page(half));
  assert.equal(cache.has('e'), false, 'not let in: the same millisecond as d');
  cache.keep('c', at(2), page(half));
  assert.ok(current(cache, 'c', at(2)).page, 'a page held is replaced without waiting');
  now += ADMIT_EVERY_MS - 1;
  cache.keep('e', at(1), page(half));
  assert.equal(cache.has('e'), false, 'not yet');
  now += 1;
  cache.keep('e', at(1), page(half));
  assert.deepEqual(
    ['c', 'd', 'e'].map((k) => cache.has(k)),
    [true, false, true],
    'e let in, d (used longest ago) let go',
  );
  cache.clear();
  cache.keep('f', at(1), page(half));
  cache.keep('g', at(1), page(half));
  assert.deepEqual(
    ['f', 'g'].map((k) => cache.has(k)),
    [true, true],
    'after a release the cache is not full',
  );
});

test('0 megabytes keeps nothing', () => {
  const cache = new ThreadPageCache(0);
  cache.keep('k', at(1), page(1));
  assert.equal(cache.has('k'), false);
});

test('at rest every page is let go, and the whole bound is free again', () => {
  const cache = new ThreadPageCache(1);
  cache.keep('a', at(1), page(MB / 2));
  cache.clear();
  assert.equal(cache.has('a'), false);
  cache.keep('b', at(1), page(MB - 400));
  assert.equal(cache.has('b'), true);
});
