// Migration 5's data step: the stored answer of every notification written before answers were
// rendered at write time, by the same code that renders them now, in batches walked in key order.
import { storedNotificationAnswer } from '../../domain/answers/notifications.js';
import { all, batch, same, sql, type Work } from '../sql.js';
import { recipientsFrom } from './notifications.js';

const BATCH = 1000;

const SQL = {
  unrendered: same(
    'unrenderedNotifications',
    `SELECT tenant_id, organization_id, notification_id, document_id, location_id, headline_template, headline_data,
       body_message, source_data, timestamp, recipients
     FROM notifications
     WHERE answer = '' AND (tenant_id, organization_id, notification_id) > (@tenantId, @organizationId, @notificationId)
     ORDER BY tenant_id, organization_id, notification_id LIMIT ${BATCH}`,
  ),
  setAnswer: sql('setNotificationAnswer', {
    sqlite: `UPDATE notifications SET answer = @answer
             WHERE tenant_id = @tenantId AND organization_id = @organizationId AND notification_id = @notificationId`,
    postgres: `UPDATE notifications n SET answer = x.answer
               FROM unnest(@tenantId::text[], @organizationId::text[], @notificationId::text[], @answer::text[])
                 AS x(tenant_id, organization_id, notification_id, answer)
               WHERE n.tenant_id = x.tenant_id AND n.organization_id = x.organization_id
                 AND n.notification_id = x.notification_id`,
  }),
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
