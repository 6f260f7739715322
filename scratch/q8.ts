import Database from 'better-sqlite3';
import { notificationsSql } from '../src/store/sqlite/statements.ts';
const db = new Database(process.env.DB ?? '/tmp/prof/w.db');
for (const p of (process.env.XPRAGMA ?? '').split(';').filter(Boolean)) db.pragma(p);
const tenantId = (db.prepare('select id from tenants limit 1').get() as any).id;
const st = db.prepare(notificationsSql({ byUser: true, document: false, location: false, ids: false }, 11)).raw(true);
const pick = (n: number) => Math.floor(Math.random() * n);
const junk: any[] = [];
for (let rep = 0; rep < 3; rep++) for (const same of [true, false]) {
  const N = 20000; let rows = 0;
  let tq = 0n;
  for (let i = 0; i < N; i++) {
    const o = same ? 5 : pick(1000), u = same ? 7 : pick(100);
    const t = process.hrtime.bigint();
    rows += st.all({ tenantId, organizationId: `org-${o}`, userId: `user-${u}`, afterTimestamp: Number.MAX_SAFE_INTEGER, afterId: '' }).length;
    tq += process.hrtime.bigint() - t;
    if (process.env.THRASH) { const a = new Array(20000); for (let k = 0; k < a.length; k++) a[k] = { k, s: 'x' + k }; junk[i % 4] = a; }
  }
  console.log(same ? 'same' : 'random', (Number(tq) / N / 1000).toFixed(1), 'us/query');
}
