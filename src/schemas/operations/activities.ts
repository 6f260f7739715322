// Activity logs and the tenant's activity settings (/v2 only; docs/api.md, "Activities").
import {
  ActivitiesAddBody,
  ActivitiesAddedResult,
  ActivitiesDeleteBody,
  ActivitiesGetBody,
  ActivitiesResult,
  ActivitiesUpdateBody,
  ActivityConfigGetBody,
  ActivityConfigResult,
  ActivityConfigUpdateBody,
  ActivityOutcomesResult,
} from '../activities.js';
import { contract } from './contract.js';

export const activities = {
  activitiesAdd: contract({
    paths: { v2: 'activities/add' },
    summary: "Add activities to a document's activity log",
    description:
      'Each activity is written with the time of the call; one given an `id` writes over a stored one of that id ' +
      "(unless it is immutable). `targetEntityId` is required for `featureType: custom`. Refused (403) while the tenant's " +
      'activity settings keep no activities (workspace/activityconfig/update).',
    tags: ['activities'],
    body: ActivitiesAddBody,
    example: {
      organizationId: 'acme',
      documentId: 'spec',
      activities: [
        {
          id: 'deploy-1',
          featureType: 'custom',
          actionType: 'deployed',
          targetEntityId: 'v2.3.1',
          actionUser: { userId: 'ann', name: 'Ann' },
          displayMessageTemplate: '{{actionUser.name}} deployed {{version}}',
          displayMessageTemplateData: { version: 'v2.3.1' },
        },
      ],
    },
    result: ActivitiesAddedResult,
  }),
  activitiesGet: contract({
    paths: { v2: 'activities/get' },
    summary: "Read an organization's or a document's activities, newest first, a page at a time",
    description:
      'Every write\'s events are activities too (docs/api.md, "Activities"). Filters: documentId, targetEntityId, ' +
      'featureTypes, actionTypes, userId (the acting user), activityIds; `order` asc or desc (default); pageSize 1 to ' +
      '1000 (default 1000); `pageToken` from the answer before.',
    tags: ['activities'],
    body: ActivitiesGetBody,
    example: { organizationId: 'acme', documentId: 'spec', featureTypes: ['custom'], order: 'desc', pageSize: 50 },
    result: ActivitiesResult,
  }),
  activitiesUpdate: contract({
    paths: { v2: 'activities/update' },
    summary: 'Change activities: their changes, snapshots, message template and icon',
    description: 'Answers each id: `success: false` for one that is not there or is immutable.',
    tags: ['activities'],
    body: ActivitiesUpdateBody,
    example: {
      organizationId: 'acme',
      activities: [{ id: 'deploy-1', actionIcon: 'https://example.com/rocket.svg' }, { id: 'nope' }],
    },
    result: ActivityOutcomesResult,
  }),
  activitiesDelete: contract({
    paths: { v2: 'activities/delete' },
    summary: "Delete activities: by id, or all of a document's or an entity's",
    description:
      'At least one of documentId, targetEntityId and activityIds; together, they narrow each other. Answers each id ' +
      'deleted, and `success: false` for an id named that is not there or is immutable.',
    tags: ['activities'],
    body: ActivitiesDeleteBody,
    example: { organizationId: 'acme', documentId: 'spec' },
    result: ActivityOutcomesResult,
  }),
  activityConfigGet: contract({
    paths: { v2: 'workspace/activityconfig/get' },
    summary: "Read the tenant's activity settings",
    description: 'Never set: `{"isEnabled": false}` (or true where MARGINALIA_ACTIVITIES_ENABLED says so).',
    tags: ['activities'],
    body: ActivityConfigGetBody,
    example: {},
    result: ActivityConfigResult,
  }),
  activityConfigUpdate: contract({
    paths: { v2: 'workspace/activityconfig/update' },
    summary: "Change the tenant's activity settings (merged with the stored ones)",
    description:
      'isEnabled, enabledTime, immutable, triggers (an action type set false is no longer logged) and retentionDays ' +
      '(ours: days activities are kept). The first enable seeds the comment triggers, `immutable: true` and ' +
      '`enabledTime`; what the request says is merged on top.',
    tags: ['activities'],
    body: ActivityConfigUpdateBody,
    example: {
      activityServiceConfig: {
        isEnabled: true,
        immutable: false,
        retentionDays: 30,
        triggers: { comment: { 'comment.delete': false } },
      },
    },
    result: ActivityConfigResult,
  }),
};
