// Ids the service makes for notifications and threads are RFC 9562 version 7 UUIDs: well formed,
// unique, and in time order, so new rows land at the right edge of the B-trees keyed by them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAnnotationId, newNotificationId, timeOrderedUuid } from '../../src/domain/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('made ids are version 7 UUIDs that carry the time they were made', () => {
  for (const id of [newNotificationId(), newAnnotationId(), timeOrderedUuid(0), timeOrderedUuid(2 ** 48 - 1)]) {
    assert.match(id, V7);
  }
  const at = Date.UTC(2026, 10, 23, 4, 30);
  assert.equal(Number.parseInt(timeOrderedUuid(at).replace('-', '').slice(0, 12), 16), at);
});

test('ids made later sort after ids made earlier, and ids made in the same millisecond differ', () => {
  const times = [1, 2, 255, 256, 65_536, Date.now(), Date.now() + 1];
  const ids = times.map((t) => timeOrderedUuid(t));
  assert.deepEqual([...ids].sort(), ids);
  const same = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(1_000)));
  assert.equal(same.size, 1000);
});
