// Migration 12's counters (and migration 41's archive counts, ARCHIVE_COUNT_TRIGGERS below): triggers keep every
// user's notification counts (docs/api.md, "POST /v1/notifications/count/get") in the same transaction as each
// change to what they count, whoever writes it (this release, a later migration, a hand-run statement).
// count/get then reads three rows, not a user's whole inbox history.
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
export interface Counted {
  /** Names its triggers (and PostgreSQL function); the table's name unless a table has several sets. */
  name?: string;
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
  /** Counter columns without a default that a new counter row gets as 0 (those of an earlier set). */
  zeros?: string[];
  /**
   * PostgreSQL: lock each changed user's '' counter before the adds are computed, when an add reads
   * another table (migration 41's archive and read pairs): two writers of the pair's two rows then
   * take turns, and the second sees the first's row (docs/decisions.md, "Per-recipient archive").
   */
  lockFirst?: boolean;
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
/** The counter columns an insert names: the adds, then the zeros. */
const columnList = (c: Counted): string => [...Object.keys(c.adds), ...(c.zeros ?? [])].join(', ');
const zeroValues = (c: Counted): string => (c.zeros ?? []).map(() => ', 0').join('');
const nameOf = (c: Counted): string => c.name ?? c.table;
const addAll = (c: Counted): string =>
  Object.keys(c.adds)
    .map((k) => `${k} = ${c.counters}.${k} + excluded.${k}`)
    .join(', ');

/** SQLite: per row, the row's adds (times sign) to its '' counter and its document's. */
function sqliteAdd(c: Counted, row: 'NEW' | 'OLD', sign: 1 | -1): string {
  const of = (e: string) => e.replace(/\br\./g, `${row}.`);
  const values =
    Object.values(c.adds)
      .map((a) => `${sign === 1 ? '' : '-'}(${of(a.sqlite)})`)
      .join(', ') + zeroValues(c);
  const head = ['tenant_id', 'organization_id', ...c.keys].map((k) => `${row}.${k}`).join(', ');
  const when = c.when ? ` AND ${of(c.when.sqlite)}` : '';
  return ['', `${row}.document_id`]
    .map(
      (doc) => `  INSERT INTO ${c.counters} (${keyList(c)}, ${columnList(c)})
    SELECT ${head}, ${doc === '' ? "''" : doc}, ${values} WHERE true${doc === '' ? '' : ` AND ${doc} IS NOT NULL`}${when}
    ON CONFLICT DO UPDATE SET ${addAll(c)};`,
    )
    .join('\n');
}

function sqliteTriggers(c: Counted): string {
  const trigger = (event: string, body: string) =>
    `CREATE TRIGGER ${nameOf(c)}_${event.split(' ')[0]!.toLowerCase()}_counts AFTER ${event} ON ${c.table} BEGIN\n${body}\nEND;`;
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
  const lock = (signed: string) =>
    c.lockFirst
      ? `INSERT INTO ${c.counters} (${keyList(c)}, ${columnList(c)})
      SELECT DISTINCT ${keys}, '', ${[...Object.keys(c.adds), ...(c.zeros ?? [])].map(() => '0').join(', ')}
      FROM (${signed}) AS r ORDER BY ${keys}
      ON CONFLICT (${keyList(c)}) DO UPDATE SET ${Object.keys(c.adds)[0]} = ${c.counters}.${Object.keys(c.adds)[0]};
    `
      : '';
  const apply = (signed: string) => `${lock(signed)}INSERT INTO ${c.counters} (${keyList(c)}, ${columnList(c)})
      SELECT ${keys}, d.document_id, ${sums}${zeroValues(c)}
      FROM (${signed}) AS r CROSS JOIN LATERAL (VALUES (''), (r.document_id)) AS d(document_id)
      WHERE d.document_id IS NOT NULL${when}
      GROUP BY ${keys}, d.document_id HAVING ${Object.keys(c.adds)
        .map((k) => `sum(sign * (${c.adds[k]!.postgres})) <> 0`)
        .join(' OR ')}
      ORDER BY ${keys}, d.document_id
      ON CONFLICT (${keyList(c)}) DO UPDATE SET ${addAll(c)};`;
  const fn = `${nameOf(c)}_apply_counts`;
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
CREATE TRIGGER ${nameOf(c)}_insert_counts AFTER INSERT ON ${c.table}
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${nameOf(c)}_delete_counts AFTER DELETE ON ${c.table}
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${nameOf(c)}_update_counts AFTER UPDATE ON ${c.table}
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();`;
}

/** The triggers of a list of counted sets, on each database. */
export const countTriggers = (sets: readonly Counted[]) => ({
  sqlite: sets.map(sqliteTriggers).join('\n'),
  postgres: sets.map(postgresTriggers).join('\n'),
});

/** Migration 12's (a released step: its text never changes). */
export const COUNT_TRIGGERS = countTriggers(COUNTED);

/**
 * Whether the other row of a wide archive's pair exists (an organization-wide notification a member both
 * archived and read), as an add over r. The document must match too: a document migration moves the two
 * rows one statement after the other, and the pair then leaves the old document with the first and
 * reaches the new one with the second, counted once.
 */
const pairOf = (other: string): { sqlite: string; postgres: string } => {
  const where = (isSame: string) => `x.tenant_id = r.tenant_id AND x.organization_id = r.organization_id
      AND x.notification_id = r.notification_id AND x.user_id = r.user_id AND x.document_id ${isSame} r.document_id`;
  return {
    sqlite: `EXISTS (SELECT 1 FROM ${other} x WHERE ${where('IS')})`,
    postgres: `(EXISTS (SELECT 1 FROM ${other} x WHERE ${where('IS NOT DISTINCT FROM')}))::int`,
  };
};

/** inbox_counts' columns before migration 41: a counter row that a set of migration 41 makes gets them as 0. */
const FIRST_COLUMNS = ['total', 'unread', 'wide_listed', 'wide_read'];

/**
 * Migration 41's sets (docs/decisions.md, "Per-recipient archive"): per user and document, the archived inbox
 * rows (archived, archived_unread), the archived organization-wide notifications that do not list them
 * (wide_archived: notification_archives rows) and how many of those they have read (wide_archived_read:
 * pairs of an archive row and a notification_reads row, kept by the triggers of both tables).
 */
const ARCHIVE_COUNTED: Counted[] = [
  {
    name: 'inbox_archive',
    table: 'inbox',
    counters: 'inbox_counts',
    keys: ['user_id'],
    adds: {
      archived: { sqlite: '1', postgres: '1' },
      archived_unread: { sqlite: 'r.unread', postgres: 'r.unread::int' },
    },
    when: { sqlite: 'r.archived = 1', postgres: 'r.archived' },
    watch: ['user_id', 'document_id', 'unread', 'archived'],
    zeros: FIRST_COLUMNS,
  },
  {
    table: 'notification_archives',
    counters: 'inbox_counts',
    keys: ['user_id'],
    adds: { wide_archived: { sqlite: '1', postgres: '1' }, wide_archived_read: pairOf('notification_reads') },
    watch: ['user_id', 'document_id'],
    zeros: FIRST_COLUMNS,
    lockFirst: true,
  },
  {
    name: 'notification_reads_archive',
    table: 'notification_reads',
    counters: 'inbox_counts',
    keys: ['user_id'],
    adds: { wide_archived_read: pairOf('notification_archives') },
    watch: ['user_id', 'document_id'],
    zeros: FIRST_COLUMNS,
    lockFirst: true,
  },
];

/** Migration 41's (a released step once released: its text never changes). */
export const ARCHIVE_COUNT_TRIGGERS = countTriggers(ARCHIVE_COUNTED);
