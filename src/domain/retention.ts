// Retention policies (docs/api.md, "Retention"): what a tenant, or one of its organizations, keeps for how
// long. A member that is null keeps its rows for good. An organization's policy, once set, replaces the
// tenant's there as a whole (docs/decisions.md, "Retention (issue 40)"); events and activities are the
// tenant's logs, so only the tenant's policy holds their windows.

export const DAY_MS = 86_400_000;

/** `read`: notifications no listed recipient has unread (organization-wide ones never); `all`: every one. */
export type NotificationsScope = 'read' | 'all';

export interface RetentionPolicy {
  notificationsDays: number | null;
  notificationsScope: NotificationsScope;
  resolvedThreadsDays: number | null;
  eventsDays: number | null;
  activitiesDays: number | null;
}

/** What keeps everything: a tenant or organization that never set a policy. */
export const KEEP_EVERYTHING: RetentionPolicy = {
  notificationsDays: null,
  notificationsScope: 'read',
  resolvedThreadsDays: null,
  eventsDays: null,
  activitiesDays: null,
};

/** The kinds of rows retention deletes, in the order a run deletes them. */
export const RETENTION_KINDS = ['notifications', 'resolvedThreads', 'events', 'activities'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type RetentionCounts = Record<RetentionKind, number>;

export const noneCounted = (): RetentionCounts => ({ notifications: 0, resolvedThreads: 0, events: 0, activities: 0 });

/** An organization's windows: its own policy where it set one, else the tenant's. */
export const organizationPolicy = (tenant: RetentionPolicy | null, own: RetentionPolicy | null): RetentionPolicy =>
  own ?? tenant ?? KEEP_EVERYTHING;

/** Whether a policy deletes any of an organization's own rows (notifications, threads). */
export const deletesInOrganizations = (p: RetentionPolicy): boolean =>
  p.notificationsDays !== null || p.resolvedThreadsDays !== null;

/** The moment before which a window's rows go, or null when it keeps them. */
export const cutoff = (days: number | null, now: number): number | null => (days === null ? null : now - days * DAY_MS);

/** What one kind's deletion reaches: an organization's notifications or resolved threads, or the tenant's logs. */
export type RetentionTarget =
  | { kind: 'notifications'; organizationId: string; before: number; scope: NotificationsScope }
  | { kind: 'resolvedThreads'; organizationId: string; before: number }
  | { kind: 'events'; before: number }
  | { kind: 'activities'; before: number };

/** A policy as stored: the tenant's (organizationId '') or an organization's. */
export interface StoredPolicy extends RetentionPolicy {
  organizationId: string;
}

/**
 * What a run deletes now, in order: in each organization (every one of `organizations`, or `only`) its
 * notifications, then its resolved threads, under the policy in force there; then, for a run of the whole
 * tenant (no `only`), the tenant's events and activities under the tenant's policy.
 */
export function retentionTargets(
  policies: readonly StoredPolicy[],
  organizations: readonly string[],
  now: number,
  only: string | null,
): RetentionTarget[] {
  const byOrganization = new Map(policies.map((p) => [p.organizationId, p]));
  const tenant = byOrganization.get('') ?? null;
  const targets: RetentionTarget[] = [];
  for (const organizationId of only !== null ? [only] : organizations) {
    const p = organizationPolicy(tenant, byOrganization.get(organizationId) ?? null);
    const notes = cutoff(p.notificationsDays, now);
    if (notes !== null) targets.push({ kind: 'notifications', organizationId, before: notes, scope: p.notificationsScope });
    const threads = cutoff(p.resolvedThreadsDays, now);
    if (threads !== null) targets.push({ kind: 'resolvedThreads', organizationId, before: threads });
  }
  if (only === null && tenant) {
    const events = cutoff(tenant.eventsDays, now);
    if (events !== null) targets.push({ kind: 'events', before: events });
    const activities = cutoff(tenant.activitiesDays, now);
    if (activities !== null) targets.push({ kind: 'activities', before: activities });
  }
  return targets;
}

/** Whether any organization may need a visit: the tenant's policy or one of its organizations' deletes their rows. */
export const visitsOrganizations = (policies: readonly StoredPolicy[]): boolean => policies.some(deletesInOrganizations);
