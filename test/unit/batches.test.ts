// The size of a long operation's batches (store/batches.ts): aimed at half the write budget, grown
// while a batch takes under a quarter of it, cut in proportion past half, within one row and the most
// a batch may take.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BatchSizer, FIRST_BATCH } from '../../src/store/batches.js';

test('a step starts small, doubles while its batches are quick, and stops at the most a batch may take', () => {
  const sizer = new BatchSizer(50, 1000);
  assert.equal(sizer.next, FIRST_BATCH);
  const sizes = [];
  for (let i = 0; i < 6; i++) {
    sizer.took(5);
    sizes.push(sizer.next);
  }
  assert.deepEqual(sizes, [128, 256, 512, 1000, 1000, 1000]);
});

test('a batch past half the budget cuts the next in proportion; between a quarter and half keeps the size', () => {
  const sizer = new BatchSizer(50, 1000, 400);
  sizer.took(100);
  assert.equal(sizer.next, 100, 'four times the aim (25 ms): a quarter');
  sizer.took(20);
  assert.equal(sizer.next, 100);
  sizer.took(5000);
  assert.equal(sizer.next, 1, 'never below one row');
  sizer.took(5000);
  assert.equal(sizer.next, 1);
});
