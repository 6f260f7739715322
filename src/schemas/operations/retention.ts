// Retention policies (an extension, /v1 and /v2 alike; docs/api.md, "Retention").
import { RetentionGetBody, RetentionPolicyResult, RetentionRunBody, RetentionRunResult, RetentionSetBody } from '../retention.js';
import { contract } from './contract.js';

const tags = ['retention'] as const;

export const retention = {
  retentionGet: contract({
    paths: { v1: 'retention/get', v2: 'retention/get' },
    summary: "The tenant's retention policy, or an organization's, and the one in force there",
    tags,
    body: RetentionGetBody,
    example: { organizationId: 'acme' },
    result: RetentionPolicyResult,
  }),
  retentionSet: contract({
    paths: { v1: 'retention/set', v2: 'retention/set' },
    summary: "Set the tenant's retention policy, or an organization's (which replaces the tenant's there)",
    description:
      'The policy sent replaces the one stored at that level: a window absent or null keeps those rows for good. ' +
      "Windows are 1 to 36500 days. `eventsDays` and `activitiesDays` belong to the tenant's policy only; with " +
      "`organizationId` they are refused. `inherit: true` with `organizationId` alone removes the organization's " +
      'policy. The server applies every policy every MARGINALIA_RETENTION_INTERVAL_SECONDS; retention/run applies them now.',
    tags,
    body: RetentionSetBody,
    example: { notificationsDays: 90, resolvedThreadsDays: 365, eventsDays: 7 },
    result: RetentionPolicyResult,
  }),
  retentionRun: contract({
    paths: { v1: 'retention/run', v2: 'retention/run' },
    summary: "Apply the tenant's retention policies now, or count what that would delete (dryRun)",
    description:
      'Deletes, in batches, what the policies reach now: notifications and resolved threads in every organization ' +
      "(or in `organizationId` only), then the tenant's events and activities; each deletion emits the events the " +
      'operations deleting the same rows emit. Answers the rows deleted per kind; with `dryRun`, the rows it would delete.',
    tags,
    body: RetentionRunBody,
    example: { dryRun: true },
    result: RetentionRunResult,
  }),
};
