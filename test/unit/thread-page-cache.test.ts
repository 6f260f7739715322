// The bound and the validity of ThreadPageCache (services/thread-pages.ts): pages are answered only
// under the versions they were read under, past the bound the page used longest ago goes first, and once
// full a new page comes in at a bounded rate (services/admission.ts).
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

test('once full, a new page comes in at most once per ADMIT_EVERY_MS; a page held or let go for moved versions at once', () => {
  let now = 1_000;
  const cache = new ThreadPageCache(1, () => now);
  const third = Math.floor(MB / 3) - 300;
  for (const k of ['a', 'b', 'c', 'd']) cache.keep(k, at(1), page(third));
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((k) => cache.has(k)),
    [false, true, true, true],
    'a went for d: full',
  );
  cache.keep('e', at(1), page(third));
  assert.deepEqual(
    ['b', 'e'].map((k) => cache.has(k)),
    [false, true],
    'the first since full comes in, for b',
  );
  const held = cache.bytes;
  cache.keep('f', at(1), page(third));
  assert.equal(cache.has('f'), false, 'not let in: the same millisecond as e');
  assert.equal(cache.bytes, held, 'and nothing was let go for it');
  cache.keep('c', at(2), page(third));
  assert.ok(current(cache, 'c', at(2)).page, 'a page held is replaced without waiting');
  assert.equal(current(cache, 'd', at(3)).page, undefined, "d's document moved");
  assert.equal(cache.has('d'), false, 'so d was let go');
  cache.keep('d', at(3), page(third));
  assert.ok(current(cache, 'd', at(3)).page, 'and the page read next under its key comes in without waiting');
  assert.equal(cache.bytes, held);
  now += ADMIT_EVERY_MS - 1;
  cache.keep('f', at(1), page(third));
  assert.equal(cache.has('f'), false, 'not yet');
  now += 1;
  cache.keep('f', at(1), page(third));
  assert.deepEqual(
    ['c', 'd', 'e', 'f'].map((k) => cache.has(k)),
    [true, true, false, true],
    'f let in, e (used longest ago) let go',
  );
  now -= 3_600_000;
  cache.keep('g', at(1), page(third));
  assert.equal(cache.has('g'), true, 'a clock set back does not shut the gate');
  cache.clear();
  cache.keep('h', at(1), page(third));
  cache.keep('i', at(1), page(third));
  assert.deepEqual(
    ['h', 'i'].map((k) => cache.has(k)),
    [true, true],
    'after a release the cache is not full',
  );
});

test('a page let go for moved versions is not held again when the read that follows keeps nothing, or one too large', () => {
  const cache = new ThreadPageCache(1);
  cache.keep('k', at(1), page(10));
  assert.equal(current(cache, 'k', at(2)).page, undefined);
  assert.equal(cache.has('k'), false, 'the read found no thread: nothing is held under k');
  assert.equal(cache.bytes, 0);
  cache.keep('k', at(2), page(10));
  cache.keep('k', at(3), page(MB + 1));
  assert.equal(cache.has('k'), false, 'a page past the bound takes the old one with it');
  assert.equal(cache.bytes, 0);
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
