import Database from 'better-sqlite3';
const db = new Database('/tmp/prof/w.db', { readonly: true });
for (const p of (process.env.XPRAGMA ?? '').split(';').filter(Boolean)) db.pragma(p);
const tenantId = (db.prepare('select id from tenants limit 1').get() as any).id;
const variants: Record<string, string> = {
  idxonly: `SELECT r.notification_id FROM notification_recipients r WHERE r.tenant_id=@tenantId AND r.organization_id=@organizationId AND r.user_id=@userId ORDER BY r.timestamp DESC, r.notification_id DESC LIMIT 11`,
  idxrowval: `SELECT r.notification_id FROM notification_recipients r WHERE r.tenant_id=@tenantId AND r.organization_id=@organizationId AND r.user_id=@userId AND (r.timestamp, r.notification_id) < (9007199254740991, '') ORDER BY r.timestamp DESC, r.notification_id DESC LIMIT 11`,
  joinN1col: `SELECT n.timestamp FROM notification_recipients r JOIN notifications n ON n.tenant_id=r.tenant_id AND n.organization_id=r.organization_id AND n.notification_id=r.notification_id WHERE r.tenant_id=@tenantId AND r.organization_id=@organizationId AND r.user_id=@userId ORDER BY r.timestamp DESC, r.notification_id DESC LIMIT 11`,
  joinNall: `SELECT n.* FROM notification_recipients r JOIN notifications n ON n.tenant_id=r.tenant_id AND n.organization_id=r.organization_id AND n.notification_id=r.notification_id WHERE r.tenant_id=@tenantId AND r.organization_id=@organizationId AND r.user_id=@userId ORDER BY r.timestamp DESC, r.notification_id DESC LIMIT 11`,
  joinNU: `SELECT n.*, u.name FROM notification_recipients r JOIN notifications n ON n.tenant_id=r.tenant_id AND n.organization_id=r.organization_id AND n.notification_id=r.notification_id LEFT JOIN users u ON u.tenant_id=n.tenant_id AND u.organization_id=n.organization_id AND u.user_id=n.action_user_id WHERE r.tenant_id=@tenantId AND r.organization_id=@organizationId AND r.user_id=@userId ORDER BY r.timestamp DESC, r.notification_id DESC LIMIT 11`,
};
for (const [name, sql] of Object.entries(variants)) {
  const st = db.prepare(sql);
  for (const raw of [false, true]) {
    if (raw) st.raw(true);
    const N = 20000; let rows = 0;
    const t = process.hrtime.bigint();
    for (let i = 0; i < N; i++) rows += st.all({ tenantId, organizationId: `org-5`, userId: `user-7` }).length;
    console.log(name, raw ? 'raw' : 'obj', (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(1), 'us', rows / N);
  }
}
