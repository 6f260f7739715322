// The contract table (src/schemas/operations/) and the operation tables (src/operations/) describe
// the same operations: every contract is served by exactly one operation, so the typed client, which
// calls every contract, calls nothing the service does not register, and no operation's contract is
// declared anywhere but in the table the client reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OPERATIONS } from '../../src/operations/index.js';
import { namesOf } from '../../src/schemas/operations/contract.js';
import { CONTRACT } from '../../src/schemas/operations/index.js';

test('every contract is served by one operation, and every operation serves a contract of the table', () => {
  const served = new Map<object, number>();
  for (const op of OPERATIONS) served.set(op.contract, (served.get(op.contract) ?? 0) + 1);
  for (const [name, contract] of Object.entries(CONTRACT)) assert.equal(served.get(contract), 1, `${name}: served once`);
  assert.equal(served.size, Object.keys(CONTRACT).length, 'no operation with a contract outside CONTRACT');
});

test('no two contracts share a path, aliases included', () => {
  const paths = Object.values(CONTRACT).flatMap((c) => namesOf(c).map(([version, name]) => `/${version}/${name}`));
  assert.equal(new Set(paths).size, paths.length);
});
