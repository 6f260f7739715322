// The event hub (src/events/hub.ts) over the configured database, with streams that record what they
// are handed: a resume below the tenant's last id after the newest events were pruned goes live (it
// must not read forever); a stream that subscribes while the tenant's last other stream closes still
// gets events; a resume past what a lagging tail has read gets each later event once; streams that
// come after the hub closed are ended.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { ApiError } from '../../src/errors.js';
import { CredentialWatch, REFUSED_REASON } from '../../src/events/credential-watch.js';
import { createTenant } from '../../src/services/credentials.js';
import { EventHub, type Subscriber } from '../../src/events/hub.js';
import type { Store, StoredEvent } from '../../src/store/store.js';
import { eq, notification, ORG, storeTest, T0, TA } from '../helpers/store-fixtures.js';
import { TEST_STORE } from '../helpers/test-database.js';

class Recorder implements Subscriber {
  cursor = 0;
  open = true;
  got: number[] = [];
  endedWith: string | null = null;
  constructor(readonly tenantId: string) {}
  wants(_event: StoredEvent): boolean | Promise<boolean> {
    return true;
  }
  send(event: StoredEvent): boolean {
    this.got.push(event.id);
    return this.open;
  }
  drained(): null {
    return null;
  }
  end(reason: string): void {
    this.open = false;
    this.endedWith = reason;
  }
}

const settle = () => new Promise((r) => setTimeout(r, 30));
let n = 0;
/** A write, and (PostgreSQL numbers events just after the answer) its event numbered. */
const write = async (store: Store) => {
  await store.addNotification(TA, ORG, notification(`h${++n}`, { timestamp: T0 + n }));
  await store.eventsNumbered(TA);
};

describe(`${TEST_STORE} store: the event hub`, () => {
  storeTest('a resume below the last id, after the newest events were pruned, goes live and gets the next one', async (store) => {
    const hub = new EventHub(store, { pollMs: 0 });
    for (let i = 0; i < 3; i++) await write(store);
    await store.pruneEvents(Number.MAX_SAFE_INTEGER, 100);
    const s = new Recorder(TA);
    await hub.subscribe(s, 1);
    await settle();
    eq(s.got, [], 'nothing is left to resume');
    await write(store);
    hub.wake(TA);
    await settle();
    eq(s.got, [4], 'live');
    hub.close('done');
  });

  storeTest("a stream that subscribes while the tenant's last other stream closes still gets events", async (store) => {
    const hub = new EventHub(store, { pollMs: 0 });
    const first = new Recorder(TA);
    await hub.subscribe(first, null);
    const second = new Recorder(TA);
    const placing = hub.subscribe(second, null);
    hub.unsubscribe(first);
    await placing;
    eq(hub.size, 1, 'the second is held');
    await write(store);
    hub.wake(TA);
    await settle();
    eq(second.got.length, 1, `the second got the event: ${second.got}`);
    hub.close('done');
  });

  storeTest('a resume past what a lagging tail has read gets each later event once', async (store) => {
    const hub = new EventHub(store, { pollMs: 0 });
    const early = new Recorder(TA);
    await hub.subscribe(early, null);
    // Written without a notice to this hub (another instance's writes not heard of yet).
    for (let i = 0; i < 3; i++) await write(store);
    const last = await store.lastEventId(TA);
    const late = new Recorder(TA);
    await hub.subscribe(late, last - 1);
    await settle();
    hub.wake(TA);
    await settle();
    eq(late.got, [last], 'only the one after its id, once');
    eq(early.got, [last - 2, last - 1, last], 'the early one gets all three');
    hub.close('done');
  });

  storeTest('a stream that comes after the hub closed is ended', async (store) => {
    const hub = new EventHub(store, { pollMs: 0 });
    hub.close('shutting down');
    const s = new Recorder(TA);
    await hub.subscribe(s, null);
    eq(s.endedWith, 'shutting down', 'ended with the reason');
    eq(hub.size, 0, 'not held');
  });

  storeTest('streams that must read to decide (end-user access) read side by side; one that fails ends alone', async (store) => {
    const hub = new EventHub(store, { pollMs: 0 });
    /** A stream whose every decision waits for the test to answer it. */
    class Asking extends Recorder {
      asked: { id: number; answer: (wanted: boolean) => void; fail: (err: Error) => void }[] = [];
      override wants(event: StoredEvent): boolean | Promise<boolean> {
        return new Promise((answer, fail) => this.asked.push({ id: event.id, answer, fail }));
      }
    }
    const [a, b, failing] = [new Asking(TA), new Asking(TA), new Asking(TA)];
    const plain = new Recorder(TA);
    for (const s of [a, b, failing, plain]) await hub.subscribe(s, null);
    await write(store);
    await write(store);
    hub.wake(TA);
    await settle();
    eq(
      [a, b, failing].map((s) => s.asked.map((q) => q.id)),
      [[1], [1], [1]],
      'each asked about the first event before any answer: side by side, and not yet about the second',
    );
    eq(plain.got, [1], 'a stream that needs no read has it at once');
    failing.asked[0]!.fail(new Error('the database is away'));
    a.asked[0]!.answer(true);
    b.asked[0]!.answer(false);
    await settle();
    eq([a.got, b.got], [[1], []], 'each has its answer for the first event');
    eq(failing.endedWith?.includes('reconnect with Last-Event-ID') ?? false, true, `the failing one ended: ${failing.endedWith}`);
    eq(
      [a, b].map((s) => s.asked.map((q) => q.id)),
      [
        [1, 2],
        [1, 2],
      ],
      'then the second event, in order',
    );
    eq(failing.asked.length, 1, 'the ended stream is asked nothing more');
    for (const s of [a, b]) s.asked[1]!.answer(true);
    await settle();
    eq([a.got, b.got, plain.got], [[1, 2], [2], [1, 2]], 'every stream in order');
    hub.close('done');
  });

  storeTest('the credential watch ends a stream its credentials no longer admit, and no other', async (store) => {
    const watch = new CredentialWatch(store, { everyMs: 0 });
    const [refused, failing, admitted] = [new Recorder(TA), new Recorder(TA), new Recorder(TA)];
    const checks = { refused: 0, failing: 0, admitted: 0 };
    watch.watch(refused, () => {
      checks.refused++;
      throw new ApiError('UNAUTHENTICATED', 'revoked');
    });
    watch.watch(failing, () => {
      checks.failing++;
      return Promise.reject(new Error('the database is away'));
    });
    watch.watch(admitted, () => {
      checks.admitted++;
    });
    await watch.check().then(
      () => assert.fail('a database failure is reported'),
      (err: Error) => eq(err.message, 'the database is away', 'reported'),
    );
    eq(refused.endedWith, REFUSED_REASON, 'a refusal ends the stream');
    eq([failing.open, admitted.open], [true, true], 'a failed check or an admitted one does not');
    await watch.check().catch(() => {});
    eq(checks, { refused: 1, failing: 2, admitted: 1 }, 'checked again only while not checked under this version');
    await createTenant(store, () => T0, 'moved');
    await watch.check().catch(() => {});
    eq(checks, { refused: 1, failing: 3, admitted: 2 }, 'a new credentials version checks every open stream again');
    watch.stop();
  });
});
