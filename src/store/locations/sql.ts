// The statements of the location operations (organizations/documents/locations/*), SQLite and
// PostgreSQL side by side. A document's threads are found at a location by their locationId or their
// location object's id, which is JSON text: the match is made in JavaScript (locations.ts), so neither
// database needs a JSON path, and only the threads that match are locked.
import { same, written } from '../sql.js';
import { THREAD } from '../comments/sql.js';
import { DOCUMENT } from '../documents/sql.js';
import { CHANGE_SOURCE_COLUMNS, KEPT_COPY } from '../notifications/sql.js';

export const LOCATIONS_SQL = {
  /** The document's threads that name a location in either member: those a location may match. */
  locatedThreads: same(
    'locatedThreads',
    `SELECT annotation_id, location, location_id FROM annotations
     WHERE ${DOCUMENT} AND (location IS NOT NULL OR location_id IS NOT NULL) ORDER BY annotation_id`,
  ),
  /** The same threads again by id, locked on PostgreSQL, so the move reads what it changes. */
  lockThreads: written(
    'lockLocatedThreads',
    (s) => `SELECT annotation_id, location, location_id FROM annotations
     WHERE ${DOCUMENT} AND ${s.isIn('annotation_id', 'ids')}
     ORDER BY annotation_id${s.lock('UPDATE')}`,
  ),
  /** A thread moved: its location object and locationId, and lastUpdated now. */
  moveThread: written(
    'moveThread',
    (s) => `UPDATE annotations SET location = @location, location_id = @locationId,
       last_updated = ${s.greatest('last_updated', s.typed('now', 'bigint'))}
     WHERE ${THREAD}`,
  ),
  /** The document's notifications at a locationId, locked on PostgreSQL, as a change reads them (notifications/sql.ts). */
  notificationsAt: written(
    'notificationsAtLocation',
    (s) => `SELECT ${CHANGE_SOURCE_COLUMNS} FROM notifications WHERE ${DOCUMENT} AND location_id = @locationId
     ORDER BY notification_id${s.lock('UPDATE')}`,
  ),
  /** The document's notifications made by comments (triggerNotification): their source names the thread. */
  commentNotifications: same(
    'commentNotificationsOfDocument',
    `SELECT notification_id, source_data FROM notifications WHERE ${DOCUMENT} AND source = 'comment'`,
  ),
  moveNotification: same(
    'moveNotification',
    `UPDATE notifications SET location_id = @locationId, answer = @answer
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId`,
  ),
  /** Each recipient's copy of the notification (the inbox keeps its locationId per user, and its answer where it has a copy). */
  moveInbox: same(
    'moveInbox',
    `UPDATE inbox SET location_id = @locationId, answer = ${KEPT_COPY('answer', '@answer')}
     WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId`,
  ),
};
