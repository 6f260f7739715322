// Migration 12's counters: triggers keep every user's notification counts (docs/api.md,
// "POST /v1/notifications/count/get") in the same transaction as each change to what they count, whoever writes it
// (this release, a later migration, a hand-run statement). count/get then reads three rows, not a user's whole
// inbox history.
//
// - inbox_counts, per user and document ('' is every document): their inbox rows (total, unread), how
//   many of those are organization-wide notifications that also list them (wide_listed), and how many
//   organization-wide notifications that do not list them they have read (wide_read).
// - wide_counts, per organization and document: organization-wide notifications.
//
// A member's count is then their rows, plus the organization-wide notifications that do not list them
// (services/inbox.ts). SQLite runs a trigger per row; PostgreSQL one per statement, over the rows it
// changed, adding to each counter once, in key order (so two writers lock counters in the same order).

/** One counted table: which counter table its rows add to, and what each row adds. */
interface Counted {
  table: string;
  counters: string;
  /** The counter's key columns, after tenant and organization (the document comes last). */
  keys: string[];
  /** Each counter column and what a row adds to it, as an expression over the row's columns (r.). */
  adds: Record<string, { sqlite: string; postgres: string }>;
  /** Only rows that pass count (an expression over r.), if not all. */
  when?: { sqlite: string; postgres: string };
  /** The columns whose change moves a counter (SQLite's update trigger watches only these). */
  watch: string[];
}

const COUNTED: Counted[] = [
  {
    table: 'inbox',
    counters: 'inbox_counts',
    keys: ['user_id'],
    adds: {
      total: { sqlite: '1', postgres: '1' },
      unread: { sqlite: 'r.unread', postgres: 'r.unread::int' },
      wide_listed: { sqlite: 'r.wide', postgres: 'r.wide::int' },
      wide_read: { sqlite: '0', postgres: '0' },
    },
    watch: ['user_id', 'document_id', 'unread', 'wide'],
  },
  {
    table: 'notification_reads',
    counters: 'inbox_counts',
    keys: ['user_id'],
    adds: {
      total: { sqlite: '0', postgres: '0' },
      unread: { sqlite: '0', postgres: '0' },
      wide_listed: { sqlite: '0', postgres: '0' },
      wide_read: { sqlite: '1', postgres: '1' },
    },
    watch: ['user_id', 'document_id'],
  },
  {
    table: 'notifications',
    counters: 'wide_counts',
    keys: [],
    adds: { total: { sqlite: '1', postgres: '1' } },
    when: { sqlite: 'r.notify_all = 1', postgres: 'r.notify_all' },
    watch: ['document_id', 'notify_all'],
  },
];

const keyList = (c: Counted): string => ['tenant_id', 'organization_id', ...c.keys, 'document_id'].join(', ');
const addAll = (c: Counted): string =>
  Object.keys(c.adds)
    .map((k) => `${k} = ${c.counters}.${k} + excluded.${k}`)
    .join(', ');

/** SQLite: per row, the row's adds (times sign) to its '' counter and its document's. */
function sqliteAdd(c: Counted, row: 'NEW' | 'OLD', sign: 1 | -1): string {
  const of = (e: string) => e.replace(/\br\./g, `${row}.`);
  const values = Object.values(c.adds)
    .map((a) => `${sign === 1 ? '' : '-'}(${of(a.sqlite)})`)
    .join(', ');
  const head = ['tenant_id', 'organization_id', ...c.keys].map((k) => `${row}.${k}`).join(', ');
  const when = c.when ? ` AND ${of(c.when.sqlite)}` : '';
  return ['', `${row}.document_id`]
    .map(
      (doc) => `  INSERT INTO ${c.counters} (${keyList(c)}, ${Object.keys(c.adds).join(', ')})
    SELECT ${head}, ${doc === '' ? "''" : doc}, ${values} WHERE true${doc === '' ? '' : ` AND ${doc} IS NOT NULL`}${when}
    ON CONFLICT DO UPDATE SET ${addAll(c)};`,
    )
    .join('\n');
}

function sqliteTriggers(c: Counted): string {
  const trigger = (event: string, body: string) =>
    `CREATE TRIGGER ${c.table}_${event.split(' ')[0]!.toLowerCase()}_counts AFTER ${event} ON ${c.table} BEGIN\n${body}\nEND;`;
  return [
    trigger('INSERT', sqliteAdd(c, 'NEW', 1)),
    trigger('DELETE', sqliteAdd(c, 'OLD', -1)),
    trigger(`UPDATE OF ${c.watch.join(', ')}`, `${sqliteAdd(c, 'OLD', -1)}\n${sqliteAdd(c, 'NEW', 1)}`),
  ].join('\n');
}

/** PostgreSQL: per statement, the changed rows' adds summed per counter, applied in key order. */
function postgresTriggers(c: Counted): string {
  const sums = Object.entries(c.adds)
    .map(([k, a]) => `sum(sign * (${a.postgres}))::bigint AS ${k}`)
    .join(', ');
  const keys = ['r.tenant_id', 'r.organization_id', ...c.keys.map((k) => `r.${k}`)].join(', ');
  const when = c.when ? ` AND ${c.when.postgres}` : '';
  const apply = (signed: string) => `INSERT INTO ${c.counters} (${keyList(c)}, ${Object.keys(c.adds).join(', ')})
      SELECT ${keys}, d.document_id, ${sums}
      FROM (${signed}) AS r CROSS JOIN LATERAL (VALUES (''), (r.document_id)) AS d(document_id)
      WHERE d.document_id IS NOT NULL${when}
      GROUP BY ${keys}, d.document_id HAVING ${Object.keys(c.adds)
        .map((k) => `sum(sign * (${c.adds[k]!.postgres})) <> 0`)
        .join(' OR ')}
      ORDER BY ${keys}, d.document_id
      ON CONFLICT (${keyList(c)}) DO UPDATE SET ${addAll(c)};`;
  const fn = `${c.table}_apply_counts`;
  return `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${apply('SELECT *, 1 AS sign FROM new_rows')}
  ELSIF TG_OP = 'DELETE' THEN
    ${apply('SELECT *, -1 AS sign FROM old_rows')}
  ELSE
    ${apply('SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 AS sign FROM old_rows')}
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER ${c.table}_insert_counts AFTER INSERT ON ${c.table}
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${c.table}_delete_counts AFTER DELETE ON ${c.table}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${c.table}_update_counts AFTER UPDATE ON ${c.table}
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;
}

export const COUNT_TRIGGERS = {
  sqlite: COUNTED.map(sqliteTriggers).join('\n'),
  postgres: COUNTED.map(postgresTriggers).join('\n'),
};
