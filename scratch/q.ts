import Database from 'better-sqlite3';
import { notificationsSql } from '../src/store/sqlite/statements.ts';
const db = new Database('/tmp/prof/w.db', { readonly: true });
for (const p of (process.env.XPRAGMA ?? '').split(';').filter(Boolean)) db.pragma(p);
const sql = notificationsSql({ byUser: true, document: false, location: false, ids: false });
console.log(db.prepare('EXPLAIN QUERY PLAN ' + sql).all({ tenantId: 'x', organizationId: 'o', userId: 'u', afterTimestamp: 1e15, afterId: '', limit: 11 }).map(r => r.detail).join('\n'));
const st = db.prepare(sql);
const tenantId = (db.prepare('select id from tenants limit 1').get() as any).id;
const pick = (n: number) => Math.floor(Math.random() * n);
for (const same of [true, false, true, false]) {
  const N = 20000; let rows = 0;
  const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const o = same ? 5 : pick(1000), u = same ? 7 : pick(100);
    rows += st.all({ tenantId, organizationId: `org-${o}`, userId: `user-${u}`, afterTimestamp: Number.MAX_SAFE_INTEGER, afterId: '', limit: 11 }).length;
  }
  console.log(same ? 'same' : 'random', Number(process.hrtime.bigint() - t) / N / 1000, 'us/query', rows / N, 'rows');
}
