// The plans of the /v2 pages of features that have no v1 twin (activities, workspace keys and settings,
// advanced webhooks, presence, document migration, approval workflows): one file per feature, so each
// feature's replay lives beside no other's. test/system/vendor-examples.test.ts replays them.
import type { Plan } from '../../helpers/vendor-plan.js';
import { ACTIVITY_PLANS } from './activities.js';
import { ADVANCED_WEBHOOK_PLANS } from './advanced-webhooks.js';
import { MIGRATE_PLANS } from './migrate.js';
import { PERMISSION_PLANS } from './permissions.js';
import { SETTINGS_PRESENCE_PLANS } from './settings-presence.js';
import { WORKFLOW_PLANS } from './workflows.js';
import { WORKSPACE_KEYS } from './workspace-keys.js';

export const V2_FEATURES: Record<string, Plan> = {
  ...ACTIVITY_PLANS,
  ...MIGRATE_PLANS,
  ...WORKSPACE_KEYS,
  ...ADVANCED_WEBHOOK_PLANS,
  ...WORKFLOW_PLANS,
  ...SETTINGS_PRESENCE_PLANS,
  ...PERMISSION_PLANS,
};
