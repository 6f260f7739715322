// The events a test's writes recorded, read back from the store's outbox (once PostgreSQL has numbered
// them, just after each answer): for route tests that check what a write announces.
import type { Caller, TestApp } from './app.js';

/** An event as the outbox holds it: its body parsed. */
export interface RecordedEvent {
  id: number;
  type: string;
  organizationId?: string;
  documentId?: string;
  data: any;
}

/** The internal id of a caller's tenant. */
export async function tenantIdOf(t: TestApp, caller: Caller): Promise<string> {
  return (await t.store.findCredentials(caller.creds.apiKey))!.tenant.id;
}

/** The tenant's last event id, once every write answered is numbered. */
export async function lastEventId(t: TestApp, tenantId: string): Promise<number> {
  await t.store.eventsNumbered(tenantId);
  return t.store.lastEventId(tenantId);
}

/** The tenant's events after `from`, in order. */
export async function eventsSince(t: TestApp, tenantId: string, from: number): Promise<RecordedEvent[]> {
  await t.store.eventsNumbered(tenantId);
  const out: RecordedEvent[] = [];
  for (let at = from; ; ) {
    const page = await t.store.eventsAfter(tenantId, at, 1000);
    out.push(...page.map((e) => JSON.parse(e.body) as RecordedEvent));
    if (page.length < 1000) return out;
    at = page[page.length - 1]!.id;
  }
}
