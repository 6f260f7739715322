// ApiError is an answer, not a fault: it carries no stack (capturing one costs every 400, 401, 404
// and 405 a walk of the call stack), and other errors keep theirs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, invalid } from '../../src/errors.js';

test('an ApiError captures no stack frames; a plain Error still does', () => {
  for (const err of [new ApiError('UNAUTHENTICATED', 'no'), invalid('data.x is wrong.')]) {
    assert.doesNotMatch(err.stack ?? '', /\n\s+at /, `${err.message}: ${err.stack}`);
    assert.equal(err.message.length > 0, true);
  }
  assert.match(new Error('a fault').stack ?? '', /\n\s+at /, 'the limit is restored for every other error');
});
