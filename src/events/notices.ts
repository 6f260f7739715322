// How a process hears of events written elsewhere (docs/events.md, "The live stream: GET /v1/events": a write on
// one instance reaches streams on every other within a second). Its own commits wake its tails at once (the store's
// listener). On PostgreSQL the store also hears every instance's commits (LISTEN/NOTIFY, sent by the commit
// itself). On SQLite several processes share one file and nothing of the kind: sibling workers (node:cluster)
// pass notices through the primary, and with MARGINALIA_REDIS_URL instances publish them on a Redis
// channel. Whatever is lost, the tails' poll (MARGINALIA_EVENT_POLL_MS) reads anyway.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { carriesNotices } from '../store/dialect/databases.js';
import type { Store } from '../store/store.js';
import type { EventHub } from './hub.js';

const REDIS_CHANNEL = 'marginalia:events';
/** What a worker sends the primary, and the primary every other worker. */
export interface EventsNotice {
  marginaliaEvents: [tenantId: string, lastId: number];
}

export const isEventsNotice = (m: unknown): m is EventsNotice =>
  typeof m === 'object' && m !== null && Array.isArray((m as EventsNotice).marginaliaEvents);

export interface Notices {
  close(): Promise<void>;
}

export function connectNotices(store: Store, hub: EventHub, options: { redisUrl: string | null; logger: Logger }): Notices {
  const shareLocally = !carriesNotices(store.kind);
  const instance = randomUUID();
  let publisher: Redis | null = null;
  let subscriber: Redis | null = null;
  if (shareLocally && options.redisUrl) {
    const redisOptions = { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false };
    publisher = new Redis(options.redisUrl, redisOptions);
    subscriber = new Redis(options.redisUrl, { ...redisOptions, enableOfflineQueue: true });
    publisher.on('error', () => {});
    subscriber.on('error', (err) => options.logger.debug({ err }, 'event notices: Redis'));
    // Subscribed again after each reconnect by ioredis; what was missed meanwhile, the poll reads.
    subscriber.subscribe(REDIS_CHANNEL).catch(() => {});
    subscriber.on('message', (_channel: string, message: string) => {
      const [from, tenantId, lastId] = message.split(' ');
      if (from !== instance && tenantId && lastId) hub.wake(tenantId, Number(lastId));
    });
  }
  const fromPrimary = (m: unknown) => {
    if (isEventsNotice(m)) hub.wake(m.marginaliaEvents[0], m.marginaliaEvents[1]);
  };
  if (shareLocally && cluster.isWorker) process.on('message', fromPrimary);

  store.onEvents?.((tenantId, lastId) => {
    if (tenantId === null) return hub.wakeAll();
    hub.wake(tenantId, lastId);
    if (!shareLocally) return;
    if (cluster.isWorker) process.send?.({ marginaliaEvents: [tenantId, lastId] } satisfies EventsNotice);
    publisher?.publish(REDIS_CHANNEL, `${instance} ${tenantId} ${lastId}`).catch(() => {});
  });
  return {
    async close() {
      store.onEvents?.(null);
      process.off('message', fromPrimary);
      publisher?.disconnect();
      subscriber?.disconnect();
    },
  };
}

/** The primary's part: a worker's notice goes to every other worker. */
export function relayNotices(): void {
  cluster.on('message', (from, message) => {
    if (!isEventsNotice(message)) return;
    for (const w of Object.values(cluster.workers ?? {})) if (w && w !== from && w.isConnected()) w.send(message);
  });
}
