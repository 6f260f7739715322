// The event hub (src/events/hub.ts) over the configured database, with streams that record what they
// are handed: a resume below the tenant's last id after the newest events were pruned goes live (it
// must not read forever); a stream that subscribes while the tenant's last other stream closes still
// gets events; a resume past what a lagging tail has read gets each later event once; streams that
// come after the hub closed are ended.
import { describe } from 'node:test';
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
  wants(): boolean {
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
const write = (store: Store) => store.addNotification(TA, ORG, notification(`h${++n}`, { timestamp: T0 + n }));

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
});
