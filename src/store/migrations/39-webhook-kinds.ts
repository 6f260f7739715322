import type { Migration } from './migration.js';

/** Older rows of one tenant and uid keep theirs; later ones lose it (the pages: a uid is unique). */
const DEDUPE = `UPDATE webhooks SET uid = NULL WHERE uid IS NOT NULL AND EXISTS (
  SELECT 1 FROM webhooks o WHERE o.tenant_id = webhooks.tenant_id AND o.uid = webhooks.uid
    AND (o.created_at < webhooks.created_at OR (o.created_at = webhooks.created_at AND o.id < webhooks.id)));`;
/** Endpoints made before this migration: those with any member of the advanced pages, or ever updated by them. */
const BACKFILL = `UPDATE webhooks SET advanced = TRUE WHERE uid IS NOT NULL OR filter_types IS NOT NULL
  OR channels IS NOT NULL OR metadata IS NOT NULL OR rate_limit IS NOT NULL OR updated_at <> created_at;`;

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
