// The live side of the event outbox (docs/events.md, "The live stream: GET /v1/events"): each process keeps one
// tail per tenant it streams to, and hands each event it reads to that tenant's streams, in id order. The outbox is
// the only source: a notice (this process's own commit, another instance's through PostgreSQL LISTEN/NOTIFY or
// Redis, a sibling worker's through the cluster primary) only says "read now", and a poll every
// MARGINALIA_EVENT_POLL_MS reads anyway, so a lost notice delays an event, never loses it. A stream
// that resumes (Last-Event-ID) reads the outbox on its own until it has caught up with the tail.
import type { StoredEvent, Store } from '../store/store.js';

/** What the hub needs of a stream: where it stands, what it wants, and how to hand it an event. */
export interface Subscriber {
  readonly tenantId: string;
  /** The last event id it has been handed (or skipped). */
  cursor: number;
  /** Whether the stream wants the event; may read (an end-user token's access), so may answer later. */
  wants(event: StoredEvent): boolean | Promise<boolean>;
  /**
   * Hands it the event; false when the stream has closed (it is then dropped). `live`: from the tail,
   * which cannot wait for one stream (past its buffer the stream is closed); a catching-up stream is
   * paced by `drained` instead.
   */
  send(event: StoredEvent, live: boolean): boolean;
  /** Resolves when the client has taken what was written (null: it has room now). */
  drained(): Promise<void> | null;
  /** Around a batch of events: what is sent between them goes out together (one write per stream). */
  hold?(): void;
  flush?(): void;
  /** Every event of its tenant passes here first, wanted or not (an end-user stream's access cache). */
  saw?(event: StoredEvent): void;
  /** Closes the stream, telling the client why (it can resume from its last id). */
  end(reason: string): void;
  /** False once it has ended. */
  readonly open: boolean;
}

interface Tail {
  /** The last id read from the outbox and handed on. */
  cursor: number;
  /** Streams that have caught up with the tail. */
  live: Set<Subscriber>;
  /** Streams still reading the outbox on their own (resuming). */
  catchingUp: Set<Subscriber>;
  reading: Promise<void> | null;
  /** A read is due at the next turn of the event loop. */
  scheduled: boolean;
  /** A notice came while reading: read again after. */
  again: boolean;
  ready: Promise<void>;
}

export interface HubOptions {
  /** Events read per statement. */
  batch?: number;
  /** How often every tail reads whether or not it was told to (ms); 0: never (tests). */
  pollMs?: number;
  /** Reports a failed read (the tail tries again at the next notice or poll). */
  onError?: (err: unknown) => void;
}

export class EventHub {
  private readonly tails = new Map<string, Tail>();
  private readonly batch: number;
  private readonly poll: NodeJS.Timeout | null;
  private readonly onError: (err: unknown) => void;
  private closed = false;
  private closedFor = '';

  constructor(
    private readonly store: Store,
    options: HubOptions = {},
  ) {
    this.batch = options.batch ?? 500;
    this.onError = options.onError ?? (() => {});
    const pollMs = options.pollMs ?? 1000;
    this.poll = pollMs > 0 ? setInterval(() => this.wakeAll(), pollMs) : null;
    this.poll?.unref();
  }

  /** How many streams are open, live or catching up. */
  get size(): number {
    let n = 0;
    for (const t of this.tails.values()) n += t.live.size + t.catchingUp.size;
    return n;
  }

  /**
   * Adds a stream. `after`: resume after this id (Last-Event-ID); null: from now on. Resolves once it
   * is placed (its catch-up, if any, goes on by itself); rejects when the outbox cannot be read.
   */
  async subscribe(sub: Subscriber, after: number | null): Promise<void> {
    for (;;) {
      if (this.closed) return sub.end(this.closedFor);
      const tail = this.tailOf(sub.tenantId);
      try {
        await tail.ready;
      } catch (err) {
        // Not held: the next stream of the tenant reads again.
        if (this.tails.get(sub.tenantId) === tail) this.tails.delete(sub.tenantId);
        throw err;
      }
      // From now: first what this process has been told of (a write that answered before this stream
      // opened is behind it, not ahead): the read under way, and the one it runs again for a notice
      // that came meanwhile. A few turns at most, so a busy tenant does not hold the stream.
      for (let turns = 0; after === null && turns < 3 && (tail.scheduled || tail.reading); turns++) {
        if (tail.reading) await tail.reading.catch(() => {});
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
      let start = after;
      // The tail may lag behind the database (another instance's write not heard of yet): an id past
      // it is checked there, so a client that saw it elsewhere does not get it again. An id past the
      // tenant's last (a restored database) resumes from now: waiting for ids to pass it would hide events.
      if (start !== null && start > tail.cursor) start = Math.min(start, await this.store.lastEventId(sub.tenantId));
      // Its tail was let go meanwhile (the tenant's last other stream closed): start again on a new one.
      if (this.tails.get(sub.tenantId) !== tail) continue;
      if (this.closed) return sub.end(this.closedFor);
      if (!sub.open) return;
      if (start === null || start >= tail.cursor) {
        sub.cursor = start ?? tail.cursor;
        tail.live.add(sub);
        if (start !== null && start > tail.cursor) this.read(sub.tenantId, tail);
        return;
      }
      sub.cursor = start;
      tail.catchingUp.add(sub);
      void this.catchUp(tail, sub);
      return;
    }
  }

  unsubscribe(sub: Subscriber): void {
    const tail = this.tails.get(sub.tenantId);
    if (!tail) return;
    tail.live.delete(sub);
    tail.catchingUp.delete(sub);
    if (tail.live.size === 0 && tail.catchingUp.size === 0 && !tail.reading) this.tails.delete(sub.tenantId);
  }

  /** A notice: the tenant has events after (at least) `lastId`. */
  wake(tenantId: string, lastId?: number): void {
    const tail = this.tails.get(tenantId);
    if (!tail || (lastId !== undefined && lastId <= tail.cursor)) return;
    this.read(tenantId, tail);
  }

  wakeAll(): void {
    for (const [tenantId, tail] of this.tails) this.read(tenantId, tail);
  }

  /** Ends every stream (shutdown: each client resumes elsewhere from its last id) and stops reading. */
  close(reason: string): void {
    this.closed = true;
    this.closedFor = reason;
    if (this.poll) clearInterval(this.poll);
    const streams = [...this.tails.values()].flatMap((t) => [...t.live, ...t.catchingUp]);
    this.tails.clear();
    for (const s of streams) s.end(reason);
  }

  private tailOf(tenantId: string): Tail {
    let tail = this.tails.get(tenantId);
    if (!tail) {
      const made: Tail = {
        cursor: 0,
        live: new Set(),
        catchingUp: new Set(),
        reading: null,
        scheduled: false,
        again: false,
        ready: Promise.resolve(this.store.lastEventId(tenantId)).then((last) => {
          made.cursor = Math.max(made.cursor, last);
        }),
      };
      tail = made;
      this.tails.set(tenantId, tail);
    }
    return tail;
  }

  /**
   * Reads at the next turn of the event loop, not now: a notice comes from a write's own request,
   * which should not wait for the fan-out, and the writes of one turn are read (and sent) together.
   */
  private read(tenantId: string, tail: Tail): void {
    if (tail.reading) {
      tail.again = true;
      return;
    }
    if (tail.scheduled) return;
    tail.scheduled = true;
    setImmediate(() => {
      tail.scheduled = false;
      if (!this.closed) this.readNow(tenantId, tail);
    });
  }

  private readNow(tenantId: string, tail: Tail): void {
    if (tail.reading) {
      tail.again = true;
      return;
    }
    tail.reading = this.readAll(tenantId, tail)
      .catch(this.onError)
      .finally(() => {
        tail.reading = null;
        if (tail.again && !this.closed) {
          tail.again = false;
          this.readNow(tenantId, tail);
        } else if (tail.live.size === 0 && tail.catchingUp.size === 0) this.tails.delete(tenantId);
      });
  }

  /** Reads the tenant's new events, batch by batch, and hands each to the live streams in order. */
  private async readAll(tenantId: string, tail: Tail): Promise<void> {
    await tail.ready;
    for (;;) {
      tail.again = false;
      const events = await this.store.eventsAfter(tenantId, tail.cursor, this.batch);
      const held = events.length > 1 ? [...tail.live] : [];
      for (const sub of held) sub.hold?.();
      try {
        for (const event of events) {
          // Synchronous unless a stream must read (an end-user token's access): no promise per stream.
          // The streams that must read do so side by side, and each has the event before the next.
          let reading: Promise<void>[] | null = null;
          for (const sub of tail.live) {
            const handed = this.hand(tail, sub, event);
            if (!handed) continue;
            reading ??= [];
            reading.push(handed);
          }
          if (reading) await Promise.all(reading);
          tail.cursor = event.id;
        }
      } finally {
        for (const sub of held) sub.flush?.();
      }
      if (events.length < this.batch || this.closed) return;
    }
  }

  /** One event to one stream: skipped when not wanted; dropped when the stream has closed. */
  private hand(tail: Tail, sub: Subscriber, event: StoredEvent, live = true): Promise<void> | undefined {
    if (event.id <= sub.cursor) return;
    sub.saw?.(event);
    const wanted = sub.wants(event);
    if (wanted instanceof Promise) {
      // A stream whose access cannot be read ends (it resumes from its last id); the others go on.
      return wanted.then(
        (w) => this.deliver(tail, sub, event, w, live),
        (err: unknown) => {
          this.onError(err);
          tail.live.delete(sub);
          tail.catchingUp.delete(sub);
          sub.end('The stream could not read what its token may see; reconnect with Last-Event-ID to resume.');
        },
      );
    }
    this.deliver(tail, sub, event, wanted, live);
  }

  private deliver(tail: Tail, sub: Subscriber, event: StoredEvent, wanted: boolean, live: boolean): void {
    sub.cursor = event.id;
    if (wanted && !sub.send(event, live)) {
      tail.live.delete(sub);
      tail.catchingUp.delete(sub);
    }
  }

  /** A resuming stream reads the outbox after its cursor until it reaches the tail's, then goes live. */
  private async catchUp(tail: Tail, sub: Subscriber): Promise<void> {
    try {
      while (tail.catchingUp.has(sub) && !this.closed) {
        const target = tail.cursor;
        const events = await this.store.eventsAfter(sub.tenantId, sub.cursor, this.batch);
        for (const event of events) {
          if (!tail.catchingUp.has(sub)) return;
          const handed = this.hand(tail, sub, event, false);
          if (handed) await handed;
          const room = sub.drained();
          if (room) await room;
        }
        if (events.length < this.batch) {
          // Read to the end: every event up to `target` that still exists has been handed on; ids
          // past the last one read were pruned or erased, so the stream stands at `target` now.
          sub.cursor = Math.max(sub.cursor, target);
          // Synchronously with this check, nothing else runs: the tail hands it the next event.
          if (sub.cursor >= tail.cursor) {
            if (tail.catchingUp.delete(sub)) tail.live.add(sub);
            return;
          }
        }
      }
    } catch (err) {
      this.onError(err);
      tail.catchingUp.delete(sub);
      sub.end('The stream could not read the event outbox; reconnect with Last-Event-ID to resume.');
    }
  }
}
