// request.log is made on first use: the same lines as pino's own child, and no child at all for a
// request that logs nothing.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { lazyChildLogger } from '../../src/http/lazy-logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

test('a lazy child logs with its bindings, at the levels its parent allows, like pino.child', async () => {
  const { lines, logger } = capture();
  let children = 0;
  const parent = Object.assign(Object.create(logger), {
    child(...args: Parameters<typeof logger.child>) {
      children++;
      return logger.child(...args);
    },
  }) as typeof logger;
  const log = lazyChildLogger(parent, { reqId: 'r-1' }, {});
  assert.equal(log.level, 'info');
  log.debug('not logged');
  assert.equal(children, 1, 'made on the first call to a log method');
  log.info({ operation: 'x' }, 'request completed');
  log.error(new Error('boom'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    lines.map((l) => [l.reqId, l.level, l.msg ?? null, l.operation ?? null]),
    [
      ['r-1', 30, 'request completed', 'x'],
      ['r-1', 50, 'boom', null],
    ],
  );
  assert.equal(children, 1, 'made once');
  assert.equal(lazyChildLogger(parent, { reqId: 'r-2' }, {}).level, 'info');
  assert.equal(children, 1, 'reading the level makes no child');
  const nested = log.child({ part: 'store' });
  nested.info('nested');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual([lines[2]?.reqId, lines[2]?.part], ['r-1', 'store']);
});
