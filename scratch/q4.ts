import Database from 'better-sqlite3';
const db = new Database('/tmp/prof/inbox.db');
const t0 = Date.now();
db.exec(`CREATE TABLE IF NOT EXISTS inbox (tenant_id TEXT NOT NULL, organization_id TEXT NOT NULL, user_id TEXT NOT NULL, timestamp INTEGER NOT NULL, notification_id TEXT NOT NULL,
  document_id TEXT, location_id TEXT, action_user_id TEXT NOT NULL, action_user_name TEXT, action_user_email TEXT, headline_template TEXT NOT NULL, headline_data TEXT NOT NULL, body_message TEXT NOT NULL, source_data TEXT NOT NULL, recipients TEXT NOT NULL,
  PRIMARY KEY (tenant_id, organization_id, user_id, timestamp DESC, notification_id DESC)) STRICT, WITHOUT ROWID`);
if (!(db.prepare('select count(*) c from inbox').get() as any).c) {
  db.exec(`INSERT INTO inbox SELECT r.tenant_id, r.organization_id, r.user_id, r.timestamp, r.notification_id, n.document_id, n.location_id, n.action_user_id, n.action_user_name, n.action_user_email, n.headline_template, n.headline_data, n.body_message, n.source_data, n.recipients
   FROM notification_recipients r JOIN notifications n USING (tenant_id, organization_id, notification_id) ORDER BY 1,2,3,4 DESC,5 DESC`);
  console.log('built in', Date.now() - t0, 'ms');
}
for (const p of (process.env.XPRAGMA ?? '').split(';').filter(Boolean)) db.pragma(p);
const tenantId = (db.prepare('select id from tenants limit 1').get() as any).id;
const sql = `SELECT i.notification_id, i.document_id, i.location_id, i.action_user_id, i.action_user_name, i.action_user_email, i.headline_template, i.headline_data, i.body_message, i.source_data, i.timestamp, i.recipients,
  u.user_id, u.name, u.email, u.photo_url FROM inbox i LEFT JOIN users u ON u.tenant_id = i.tenant_id AND u.organization_id = i.organization_id AND u.user_id = i.action_user_id
  WHERE i.tenant_id = @tenantId AND i.organization_id = @organizationId AND i.user_id = @userId AND (i.timestamp, i.notification_id) < (@afterTimestamp, @afterId)
  ORDER BY i.timestamp DESC, i.notification_id DESC LIMIT @limit`;
console.log(db.prepare('EXPLAIN QUERY PLAN ' + sql).all({ tenantId, organizationId: 'o', userId: 'u', afterTimestamp: 1, afterId: '', limit: 11 }).map((r: any) => r.detail).join('\n'));
const pick = (n: number) => Math.floor(Math.random() * n);
for (const raw of [false, true, false, true]) for (const same of [true, false]) {
  const st = db.prepare(sql); st.raw(raw);
  const N = 20000; let rows = 0;
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const o = same ? 5 : pick(1000), u = same ? 7 : pick(100);
    rows += st.all({ tenantId, organizationId: `org-${o}`, userId: `user-${u}`, afterTimestamp: Number.MAX_SAFE_INTEGER, afterId: '', limit: 11 }).length;
  }
  console.log(raw ? 'raw' : 'obj', same ? 'same' : 'random', (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(1), 'us/query', rows/N);
}
