// Every operation, by feature, in the order /openapi.json lists them; app.ts registers them inside the
// authenticated scope with one loop (registerOperations). GET /v1/events, a stream rather than a
// request and its answer, stays a route of its own (routes/v1_events.ts).
import { activities } from './activities.js';
import { advancedWebhooks, webhookOperators } from './advanced-webhooks.js';
import { annotations } from './annotations.js';
import { apiKeys } from './api-keys.js';
import { auth } from './auth.js';
import { comments } from './comments.js';
import { documentMigrations } from './document-migrations.js';
import { documents } from './documents.js';
import { folders } from './folders.js';
import { groups } from './groups.js';
import { liveState } from './livestate.js';
import { locations } from './locations.js';
import { notifications } from './notifications.js';
import type { Operation } from './operation.js';
import { organizationLifecycle, organizations } from './organizations.js';
import { personalData } from './personal-data.js';
import { permissions } from './permissions.js';
import { presence } from './presence.js';
import { retention } from './retention.js';
import { reactions } from './reactions.js';
import { search } from './search.js';
import { serviceSettings } from './service-settings.js';
import { members, users } from './users.js';
import { webhooks } from './webhooks.js';
import { workspace } from './workspace.js';
import { workflows } from './workflows.js';

export const OPERATIONS: readonly Operation[] = [
  ...users,
  ...annotations,
  ...comments,
  ...notifications,
  ...organizations,
  ...members,
  ...groups,
  ...personalData,
  ...documents,
  ...documentMigrations,
  ...folders,
  ...organizationLifecycle,
  ...locations,
  ...auth,
  ...permissions,
  ...webhooks,
  ...webhookOperators,
  ...advancedWebhooks,
  ...workspace,
  ...liveState,
  ...activities,
  ...apiKeys,
  ...workflows,
  ...serviceSettings,
  ...presence,
  ...retention,
  ...reactions,
  ...search,
];
