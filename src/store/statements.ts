// Every statement of the store, for what looks at all of them at once (the query-plan test).
import { COMMENTS_SQL } from './comments/sql.js';
import { CREDENTIALS_SQL } from './credentials/sql.js';
import { NOTIFICATION_FILTER_SETS, NOTIFICATIONS_SQL, notificationRead } from './notifications/sql.js';
import type { Statement } from './sql.js';
import { USERS_SQL } from './users/sql.js';

export const ALL_STATEMENTS: readonly Statement[] = [
  ...Object.values(CREDENTIALS_SQL),
  ...Object.values(USERS_SQL),
  ...Object.values(COMMENTS_SQL),
  ...Object.values(NOTIFICATIONS_SQL),
  ...NOTIFICATION_FILTER_SETS.map((f) => notificationRead(f, 11)),
];
