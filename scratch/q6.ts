import Database from 'better-sqlite3';
const db = new Database('/tmp/prof/inbox.db');
const tenantId = (db.prepare('select id from tenants limit 1').get() as any).id;
const C = `SELECT i.notification_id, i.document_id, i.location_id, i.action_user_id, i.action_user_name, i.action_user_email, i.headline_template, i.headline_data, i.body_message, i.source_data, i.timestamp, i.recipients, u.user_id, u.name, u.email, u.photo_url FROM inbox i LEFT JOIN users u ON u.tenant_id = i.tenant_id AND u.organization_id = i.organization_id AND u.user_id = i.action_user_id WHERE i.tenant_id = @tenantId AND i.organization_id = @organizationId AND i.user_id = @userId`;
const O = `ORDER BY i.timestamp DESC, i.notification_id DESC`;
const V: Record<string,[string, object]> = {
  plain: [`${C} ${O} LIMIT 11`, {}],
  limitParam: [`${C} ${O} LIMIT @limit`, { limit: 11 }],
  cursor: [`${C} AND (i.timestamp, i.notification_id) < (@afterTimestamp, @afterId) ${O} LIMIT @limit`, { limit: 11, afterTimestamp: Number.MAX_SAFE_INTEGER, afterId: '' }],
  cursorOr: [`${C} AND (i.timestamp < @afterTimestamp OR (i.timestamp = @afterTimestamp AND i.notification_id < @afterId)) ${O} LIMIT @limit`, { limit: 11, afterTimestamp: Number.MAX_SAFE_INTEGER, afterId: '' }],
};
const pick = (n: number) => Math.floor(Math.random() * n);
for (let rep = 0; rep < 2; rep++) for (const [name, [sql, extra]] of Object.entries(V)) for (const same of [true, false]) {
  const st = db.prepare(sql); st.raw(true);
  const N = 20000;
  const t = process.hrtime.bigint();
  let rows = 0;
  for (let i = 0; i < N; i++) {
    const o = same ? 5 : pick(1000), u = same ? 7 : pick(100);
    rows += st.all({ tenantId, organizationId: `org-${o}`, userId: `user-${u}`, ...extra }).length;
  }
  console.log(name, same ? 'same' : 'random', (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(1), 'us/query', rows / N);
}
