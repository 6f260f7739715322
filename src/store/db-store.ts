// The Store over either database: the core (core.ts) and every feature's part of the store
// (`<feature>/index.ts`), put together once. Adding a feature adds its part here and in store.ts.
import { StoreCore, type StoreOptions } from './core.js';
import { activitiesStore } from './activities/index.js';
import { commentsStore } from './comments/index.js';
import { credentialsStore } from './credentials/index.js';
import type { Dialect } from './dialect/dialect.js';
import { documentMigrationsStore } from './document-migrations/index.js';
import { documentsStore } from './documents/index.js';
import { domainsStore } from './domains/index.js';
import { workspaceStore } from './workspace/index.js';
import { workflowsStore } from './workflows/index.js';
import { eventsStore } from './events/index.js';
import { foldersStore } from './folders/index.js';
import { groupsStore } from './groups/index.js';
import type { FaultListener } from './health.js';
import { liveStatesStore } from './livestate/index.js';
import { locationsStore } from './locations/index.js';
import { notificationsStore } from './notifications/index.js';
import { organizationsStore } from './organizations/index.js';
import { personalDataStore } from './personal-data/index.js';
import { signingKeysStore } from './signing-keys/index.js';
import type { Store } from './store.js';
import { usersStore } from './users/index.js';
import { webhooksStore } from './webhooks/index.js';
import { emailStore } from './email/index.js';
import { serviceSettingsStore } from './service-settings/index.js';
import { presenceStore } from './presence/index.js';
import { reactionsStore } from './reactions/index.js';
import { accessRolesStore } from './access-roles/index.js';
import { retentionStore } from './retention/index.js';
import { attachmentsStore } from './attachments/index.js';
import { searchStore } from './search/index.js';

export type { StoreOptions } from './core.js';

export function dbStore(dialect: Dialect, onFault?: FaultListener, options?: StoreOptions): Store {
  const core = new StoreCore(dialect, onFault, options);
  return {
    kind: core.kind,
    migrate: () => core.migrate(),
    ping: () => core.ping(),
    fault: () => core.fault(),
    poolStats: () => core.poolStats(),
    releaseMemory: () => core.releaseMemory(),
    requestArrived: () => core.requestArrived(),
    check: () => core.check(),
    checkpointStats: () => core.checkpointStats(),
    observeCalls: (listener) => core.observeCalls(listener),
    observeTransactions: (listener) => core.observeTransactions(listener),
    close: () => core.close(),
    onEvents: (listener) => core.onEvents(listener),
    eventsNumbered: (tenantId) => core.eventsNumbered(tenantId),
    numberLeftDrafts: (before) => core.numberLeftDrafts(before),
    ...credentialsStore(core),
    ...signingKeysStore(core),
    ...eventsStore(core),
    ...usersStore(core),
    ...groupsStore(core),
    ...organizationsStore(core),
    ...documentsStore(core),
    ...foldersStore(core),
    ...commentsStore(core),
    ...locationsStore(core),
    ...notificationsStore(core),
    ...personalDataStore(core),
    ...domainsStore(core),
    ...workflowsStore(core),
    ...liveStatesStore(core),
    ...webhooksStore(core),
    ...emailStore(core),
    ...activitiesStore(core),
    ...documentMigrationsStore(core),
    ...workspaceStore(core),
    ...serviceSettingsStore(core),
    ...presenceStore(core),
    ...accessRolesStore(core),
    ...retentionStore(core),
    ...reactionsStore(core),
    ...attachmentsStore(core),
    ...searchStore(core),
  };
}
