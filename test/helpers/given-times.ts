// The values an add's createdAt and lastUpdated refuse (docs/api.md, "What an import keeps"): the route tests of
// organizations, folders and documents run one test per member and value.
import { test } from 'node:test';

const BAD_TIMES = [
  ['a string', '2020-01-01'],
  ['a negative number', -1],
  ['a float', 1.5],
] as const;

/** A test per member and bad value; `refused` sends it, checks the 400 and that nothing was written. */
export function eachBadTime(refused: (member: 'createdAt' | 'lastUpdated', what: string, value: unknown) => Promise<void>): void {
  for (const [what, value] of BAD_TIMES)
    for (const member of ['createdAt', 'lastUpdated'] as const)
      test(`${member} that is ${what}: INVALID_ARGUMENT, nothing written`, () => refused(member, what, value));
}
