// Every operation's contract, by a stable name (the client's and the tests' name for it). The
// service's operation tables (src/operations/) take their paths and schemas from here, the typed
// client (client/src) its calls; the order of /openapi.json is that of src/operations/index.ts.
import { activities } from './activities.js';
import { advancedWebhooks } from './advanced-webhooks.js';
import { annotations } from './annotations.js';
import { apiKeys } from './api-keys.js';
import { auth } from './auth.js';
import { comments } from './comments.js';
import { documentMigrations } from './document-migrations.js';
import { documents } from './documents.js';
import { folders } from './folders.js';
import { groups } from './groups.js';
import { livestate } from './livestate.js';
import { locations } from './locations.js';
import { notifications } from './notifications.js';
import { organizations } from './organizations.js';
import { permissions } from './permissions.js';
import { personalData } from './personal-data.js';
import { presence } from './presence.js';
import { reactions } from './reactions.js';
import { retention } from './retention.js';
import { search } from './search.js';
import { serviceSettings } from './service-settings.js';
import { users } from './users.js';
import { webhooks } from './webhooks.js';
import { workspace } from './workspace.js';
import { workflows } from './workflows.js';

export const CONTRACT = {
  ...users,
  ...annotations,
  ...comments,
  ...notifications,
  ...organizations,
  ...groups,
  ...personalData,
  ...documents,
  ...folders,
  ...locations,
  ...auth,
  ...permissions,
  ...webhooks,
  ...advancedWebhooks,
  ...workspace,
  ...livestate,
  ...activities,
  ...documentMigrations,
  ...apiKeys,
  ...workflows,
  ...serviceSettings,
  ...presence,
  ...retention,
  ...reactions,
  ...search,
};

/** The name of an operation. */
export type OperationName = keyof typeof CONTRACT;
