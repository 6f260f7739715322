import type { Migration } from './migration.js';

/** Whether the row `w` has an older one of its tenant and uid (the oldest keeps the uid: the pages say it is unique). */
const later = (w: string) => `${w}.uid IS NOT NULL AND EXISTS (
  SELECT 1 FROM webhooks o WHERE o.tenant_id = ${w}.tenant_id AND o.uid = ${w}.uid
    AND (o.created_at < ${w}.created_at OR (o.created_at = ${w}.created_at AND o.id < ${w}.id)))`;
/** A later copy of the webhook service's endpoint (services/webhook-config.ts, BASIC_SERVICE_UID). */
const spareService = (w: string) => `${w}.uid = 'webhookconfig' AND ${later(w)}`;
const ofSpareService = (table: string) =>
  `EXISTS (SELECT 1 FROM webhooks w WHERE w.tenant_id = ${table}.tenant_id AND w.id = ${table}.webhook_id AND ${spareService('w')})`;
/**
 * Two webhookconfig enables at once could make two service endpoints; every update since changed the oldest
 * (found first), so the later ones are stale copies sending the same events that no update reaches: they go,
 * as webhooks/delete removes one (its queues, pending deliveries and state; attempts stay as history).
 * Endpoints of the advanced pages that share a uid are the caller's own: the later ones keep all but the uid.
 */
const DEDUPE = `DELETE FROM webhook_queues WHERE ${ofSpareService('webhook_queues')};
DELETE FROM webhook_deliveries WHERE status = 'pending' AND ${ofSpareService('webhook_deliveries')};
DELETE FROM webhook_states WHERE ${ofSpareService('webhook_states')};
DELETE FROM webhooks WHERE ${spareService('webhooks')};
UPDATE webhooks SET uid = NULL WHERE ${later('webhooks')};`;
/**
 * Endpoints made before this migration: those with a member only the advanced pages set. An update is no sign:
 * webhooks/secret/rotate, and endpoints/update {"disabled": false} (the only way back from the server's
 * switch-off then), touched webhooks of webhooks/add too (docs/decisions.md, "Advanced webhooks").
 */
const BACKFILL = `UPDATE webhooks SET advanced = TRUE WHERE uid IS NOT NULL OR filter_types IS NOT NULL
  OR channels IS NOT NULL OR metadata IS NOT NULL OR rate_limit IS NOT NULL;`;

export const webhookKinds: Migration = {
  version: 39,
  name: 'webhooks: which were made by the advanced pages, and one endpoint per uid',
  // advanced: the webhook is an endpoint of the advanced pages (endpoints/create, webhookconfig's): the
  // tenant's advanced switch (isEnabled false) holds those only, never a webhook made by webhooks/add
  // (docs/decisions.md, "Advanced webhooks"). Rows made before are told apart by their members (BACKFILL).
  // webhooks_by_uid: the pages say a uid is unique; it is also how webhookconfig finds its endpoint,
  // so two updates at once cannot make two.
  sqlite: `
ALTER TABLE webhooks ADD COLUMN advanced INTEGER NOT NULL DEFAULT 0;
${BACKFILL.replace('TRUE', '1')}
${DEDUPE}
CREATE UNIQUE INDEX webhooks_by_uid ON webhooks (tenant_id, uid) WHERE uid IS NOT NULL;
`,
  postgres: `
ALTER TABLE webhooks ADD COLUMN advanced boolean NOT NULL DEFAULT false;
${BACKFILL}
${DEDUPE}
CREATE UNIQUE INDEX webhooks_by_uid ON webhooks (tenant_id, uid) WHERE uid IS NOT NULL;
`,
};
