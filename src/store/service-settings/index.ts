// The workspace's service settings (workspace/emailconfig, notificationconfig, permissionproviderconfig):
// tenant settings, like webhooks and allowed domains, so no events (docs/decisions.md).
// This feature's part of the Store (store.ts): each method runs its store code through the core.
import type { ServiceChange, ServiceName, ServiceSetting } from '../../domain/service-settings.js';
import type { Maybe } from '../../maybe.js';
import type { StoreCore } from '../core.js';
import * as settings from './settings.js';

export const serviceSettingsStore = (core: StoreCore) => ({
  /** The tenant's stored setting of a service; null when it never set one (its page then shows the defaults). */
  serviceSetting(tenantId: string, service: ServiceName): Maybe<ServiceSetting | null> {
    return core.read('serviceSetting', () => settings.stored(tenantId, service));
  },

  /** An update page's change merged into the stored setting, in one transaction; answers the setting written. */
  changeServiceSetting(tenantId: string, service: ServiceName, change: ServiceChange, now: number): Maybe<ServiceSetting> {
    return core.write('changeServiceSetting', () => settings.change(tenantId, service, change, now));
  },
});

export type ServiceSettingsStore = ReturnType<typeof serviceSettingsStore>;
