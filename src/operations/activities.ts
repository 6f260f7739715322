// Activity logs and the tenant's activity settings (/v2 only; docs/api.md, "Activities").
import { sendSuccessJson } from '../http/envelope.js';
import { CONTRACT } from '../schemas/operations/index.js';
import {
  ACTIVITIES_ADDED,
  ACTIVITIES_DELETED,
  ACTIVITIES_READ,
  ACTIVITIES_UPDATED,
  addActivities,
  deleteActivities,
  getActivities,
  updateActivities,
} from '../services/activities.js';
import { CONFIG_READ, CONFIG_UPDATED, getActivityConfig, updateActivityConfig } from '../services/activity-config.js';
import { operation, pageTokenOf } from './operation.js';

/** Activity logs and the tenant's activity settings. */
export const activities = [
  operation(CONTRACT.activitiesAdd, { run: addActivities, answer: ACTIVITIES_ADDED }),
  operation(CONTRACT.activitiesGet, {
    run: getActivities,
    answer: ({ dataJson, pageToken }, _request, reply) =>
      sendSuccessJson(reply, ACTIVITIES_READ, dataJson, pageTokenOf(pageToken)),
  }),
  operation(CONTRACT.activitiesUpdate, { run: updateActivities, answer: ACTIVITIES_UPDATED }),
  operation(CONTRACT.activitiesDelete, { run: deleteActivities, answer: ACTIVITIES_DELETED }),
  operation(CONTRACT.activityConfigGet, { run: getActivityConfig, answer: CONFIG_READ }),
  operation(CONTRACT.activityConfigUpdate, { run: updateActivityConfig, answer: CONFIG_UPDATED }),
];
