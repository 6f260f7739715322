import Database from 'better-sqlite3';
import { notificationsSql } from '../src/store/sqlite/statements.ts';
const db = new Database(process.env.DB ?? '/tmp/prof/w.db', { readonly: true });
const tenantId = (db.prepare('select id from tenants limit 1').get() as any).id;
const base = notificationsSql({ byUser: true, document: false, location: false, ids: false });
const V: Record<string, string> = {
  current: base,
  literal: base.replace('LIMIT @limit', 'LIMIT 11'),
  literalNoCursor: base.replace('LIMIT @limit', 'LIMIT 11').replace(/AND \(r\.timestamp, r\.notification_id\) < \(@afterTimestamp, @afterId\)/, ''),
};
const pick = (n: number) => Math.floor(Math.random() * n);
for (let rep = 0; rep < 2; rep++) for (const [name, sql] of Object.entries(V)) for (const same of [true, false]) {
  const st = db.prepare(sql); st.raw(true);
  const N = 20000; let rows = 0;
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const o = same ? 5 : pick(1000), u = same ? 7 : pick(100);
    const p: any = { tenantId, organizationId: `org-${o}`, userId: `user-${u}` };
    if (sql.includes('@limit')) p.limit = 11;
    if (sql.includes('@afterId')) { p.afterTimestamp = Number.MAX_SAFE_INTEGER; p.afterId = ''; }
    rows += st.all(p).length;
  }
  console.log(name, same ? 'same' : 'random', (Number(process.hrtime.bigint() - t) / N / 1000).toFixed(1), 'us/query', rows / N);
}
