// The plans of the /v2 pages of features that have no v1 twin (activities, workspace keys and settings,
// advanced webhooks, presence, document migration, approval workflows): one file per feature, so each
// feature's replay lives beside no other's. test/system/vendor-examples.test.ts replays them.
import type { Plan } from '../../helpers/vendor-plan.js';
import { SETTINGS_PRESENCE_PLANS } from './settings-presence.js';

export const V2_FEATURES: Record<string, Plan> = {
  ...SETTINGS_PRESENCE_PLANS,
};
