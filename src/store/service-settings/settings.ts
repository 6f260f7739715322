// Store code of the workspace's service settings: one row per tenant and service, its configuration
// kept as the JSON text of the object every change was merged into (domain/service-settings.ts).
import { changedSetting, type ServiceChange, type ServiceName, type ServiceSetting } from '../../domain/service-settings.js';
import { first, run, type Row, type Work } from '../sql.js';
import { SERVICE_SETTINGS_SQL as SQL } from './sql.js';

const settingOf = (row: Row | undefined): ServiceSetting | null =>
  row ? { enabled: Boolean(row.enabled), config: JSON.parse(row.config as string) as ServiceSetting['config'] } : null;

/** The tenant's stored setting of a service; null when it never set one. */
export function* stored(tenantId: string, service: ServiceName): Work<ServiceSetting | null> {
  return settingOf(yield* first(SQL.read, { tenantId, service }));
}

/** Merges a change into the stored setting (changedSetting) under the tenant's lock; answers the setting written. */
export function* change(tenantId: string, service: ServiceName, sent: ServiceChange, now: number): Work<ServiceSetting> {
  yield* first(SQL.lockTenant, { tenantId });
  const next = changedSetting(service, yield* stored(tenantId, service), sent);
  yield* run(SQL.write, { tenantId, service, enabled: next.enabled, config: JSON.stringify(next.config), now });
  return next;
}
