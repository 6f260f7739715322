// The data steps of migrations over notifications: 5's stored answers and 47's headlines, each rendered by the code
// that renders them at write time, in batches walked in key order.
import { storedNotificationAnswer } from '../../domain/answers/notifications.js';
import { headlineOf } from '../../domain/search.js';
import { all, batch, same, sql, type Work } from '../sql.js';
import { recipientsFrom } from './notifications.js';

const BATCH = 1000;

/** Sets one text column of notifications named by key, a row of the batch each (PostgreSQL: the batch as arrays). */
const setColumn = (name: string, column: string, param: string) =>
  sql(name, {
    sqlite: `UPDATE notifications SET ${column} = @${param}
             WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId`,
    postgres: `UPDATE notifications n SET ${column} = x.${column}
               FROM unnest(@tenantId::text[], @organizationId::text[], @notificationId::text[], @${param}::text[])
                 AS x(tenant_id, organization_id, notification_id, ${column})
               WHERE n.tenant_id = x.tenant_id AND n.organization_id = x.organization_id
                 AND n.notification_id = x.notification_id`,
  });

const SQL = {
  unrendered: same(
    'unrenderedNotifications',
    `SELECT tenant_id, organization_id, notification_id, document_id, location_id, headline_template, headline_data,
       body_message, source_data, timestamp, recipients
     FROM notifications
     WHERE answer = '' AND (tenant_id, organization_id, notification_id) > (@tenantId, @organizationId, @notificationId)
     ORDER BY tenant_id, organization_id, notification_id LIMIT ${BATCH}`,
  ),
  setAnswer: setColumn('setNotificationAnswer', 'answer', 'answer'),
};

interface Unrendered {
  tenant_id: string;
  organization_id: string;
  notification_id: string;
  document_id: string | null;
  location_id: string | null;
  headline_template: string;
  headline_data: string;
  body_message: string;
  source_data: string;
  timestamp: number | string;
  recipients: string;
}

export function* renderStoredAnswers(): Work<void> {
  let after = { tenantId: '', organizationId: '', notificationId: '' };
  for (;;) {
    const rows = yield* all<Unrendered>(SQL.unrendered, after);
    if (rows.length === 0) return;
    const answers = rows.map((r) => {
      const recipients = recipientsFrom(r.recipients, r.tenant_id, r.organization_id);
      const answer = storedNotificationAnswer({
        notificationId: r.notification_id,
        documentId: r.document_id,
        locationId: r.location_id,
        headlineTemplate: r.headline_template,
        headlineData: r.headline_data,
        sourceData: r.source_data,
        bodyMessage: r.body_message,
        timestamp: Number(r.timestamp),
        recipients,
      });
      return { tenantId: r.tenant_id, organizationId: r.organization_id, notificationId: r.notification_id, answer };
    });
    yield* batch(SQL.setAnswer, {}, answers);
    const last = answers[answers.length - 1]!;
    after = { tenantId: last.tenantId, organizationId: last.organizationId, notificationId: last.notificationId };
  }
}

const HEADLINES_SQL = {
  sources: same(
    'notificationHeadlineSources',
    `SELECT tenant_id, organization_id, notification_id, headline_template, headline_data, action_user_id, action_user_name
     FROM notifications
     WHERE (tenant_id, organization_id, notification_id) > (@tenantId, @organizationId, @notificationId)
     ORDER BY tenant_id, organization_id, notification_id LIMIT ${BATCH}`,
  ),
  setHeadline: setColumn('setNotificationHeadline', 'headline_text', 'headlineText'),
};

/**
 * Migration 47's data step: the headline of every notification written before headlines were searched, rendered by
 * the code that renders them at write time, in batches walked in key order. An empty headline is not written: the
 * column's default is the same.
 */
export function* writeHeadlines(): Work<void> {
  let after = { tenantId: '', organizationId: '', notificationId: '' };
  for (;;) {
    const rows = yield* all<Headline>(HEADLINES_SQL.sources, after);
    if (rows.length === 0) return;
    const headlines = rows
      .map((r) => ({
        tenantId: r.tenant_id,
        organizationId: r.organization_id,
        notificationId: r.notification_id,
        headlineText: headlineOf(r.headline_template, JSON.parse(r.headline_data) as Record<string, unknown>, {
          userId: r.action_user_id,
          name: r.action_user_name,
        }),
      }))
      .filter((h) => h.headlineText !== '');
    yield* batch(HEADLINES_SQL.setHeadline, {}, headlines);
    const last = rows[rows.length - 1]!;
    after = { tenantId: last.tenant_id, organizationId: last.organization_id, notificationId: last.notification_id };
  }
}

interface Headline {
  tenant_id: string;
  organization_id: string;
  notification_id: string;
  headline_template: string;
  headline_data: string;
  action_user_id: string;
  action_user_name: string | null;
}
