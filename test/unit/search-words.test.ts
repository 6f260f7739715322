// The words of search (domain/search.ts): how a query is split and folded, and the terms SQLite's index holds
// (migration 48), which must be the query's words with the organization's scope in front.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexTerms, longestWord, matchesAll, queryWords } from '../../src/domain/search.js';

test('a text is indexed by its folded words, each with its scope in front, in order', () => {
  assert.equal(indexTerms(17, 'Première réunion: foo@bar.com, v1.2'), '17_premiere 17_reunion 17_foo 17_bar 17_com 17_v1 17_2');
  assert.equal(indexTerms(3, '日本語のテキスト about Ωmega'), '3_日本語のテキスト 3_about 3_ωmega');
  assert.equal(indexTerms(3, '<b>bold</b> & "quoted"'), '3_b 3_bold 3_b 3_quoted', 'markup in plain text is words too');
  assert.equal(indexTerms(1, ''), '');
  assert.equal(indexTerms(1, ' \u0301 -- '), '', 'a lone accent is no word');
  assert.equal(indexTerms(2n ** 20n, 'x'), '1048576_x', 'a scope as SQLite hands it over, as a bigint');
});

test("a query's words are the index's, so every word of a text is found by itself and by its start", () => {
  for (const text of ['Café crème', 'ΑΘΗΝΑ straße', 'naïve coöperation', 'Ǆemal', '한국어 텍스트', 'x²+y²']) {
    const terms = indexTerms(9, text).split(' ');
    for (const word of queryWords(text)) {
      assert.ok(terms.includes(`9_${word}`), `${word} of ${text}`);
      assert.ok(matchesAll(text, [word.slice(0, 1)]), `the start of ${word}`);
    }
  }
  assert.deepEqual(queryWords('"launch" AND (cafe*) NEAR:x'), ['launch', 'and', 'cafe', 'near', 'x']);
});

test('the longest word of a query is counted in characters as typed', () => {
  assert.equal(longestWord(''), 0);
  assert.equal(longestWord('a bb ccc'), 3);
  assert.equal(longestWord('한'.repeat(128)), 128, 'a syllable is one character, three letters decomposed');
  assert.equal(longestWord('😀😀 ab'), 2, 'an emoji is a separator');
});
