// `marginalia import` from start to end (docs/operations.md, "Importing"): the source, the checkpoint, the copy,
// and the comparison of counts per document on both sides.
import type { Clock } from '../clock.js';
import type { Tenant } from '../domain/credentials.js';
import { getAnnotations } from '../services/annotations.js';
import type { Caller, Services } from '../services/context.js';
import { getNotifications } from '../services/notifications.js';
import { ProfileCache } from '../services/profiles.js';
import { ThreadPageCache } from '../services/thread-pages.js';
import type { InputLimits } from '../schemas/common.js';
import type { Store } from '../store/store.js';
import { Checkpoint } from './checkpoint.js';
import { comparisonLines, type DocumentCounts, differences, threadCounts, unreadOf } from './compare.js';
import { Copier } from './copy.js';
import { Source } from './source.js';

export interface ImportRequest {
  from: string;
  apiKey: string;
  authToken: string;
  organizationIds: string[] | null;
  dryRun: boolean;
  /** null: kept in memory only (a dry run's). */
  checkpointFile: string | null;
  concurrency: number;
  rate: number;
  timeoutMs: number;
  attempts: number;
}

export interface ImportSettings {
  limits: InputLimits;
  bodyLimit: number;
  profileCacheMb: number;
  clock: Clock;
}

export interface ImportOutput {
  /** A line of the outcome (stdout). */
  out(line: string): void;
  /** Progress: a line redrawn in place on a terminal, else plain lines (stderr). */
  progress(line: string): void;
  /** A warning, one line of its own (stderr): something the run goes on without. */
  warn(line: string): void;
  done(): void;
  /** Given the checkpoint's save, for an interruption to write the last steps done before the process ends. */
  opened?(save: () => void): void;
}

/** Reads at most this many items per page: the most the wire format allows (docs/api.md, "Paging"). */
const PAGE_SIZE = 1000;

export interface ImportOutcome {
  differing: string[];
  records: number;
  seconds: number;
}

export async function runImport(
  store: Store,
  tenant: Tenant,
  settings: ImportSettings,
  request: ImportRequest,
  output: ImportOutput,
): Promise<ImportOutcome> {
  const started = Date.now();
  const source = new Source({
    baseUrl: request.from,
    apiKey: request.apiKey,
    authToken: request.authToken,
    concurrency: request.concurrency,
    rate: request.rate,
    timeoutMs: request.timeoutMs,
    attempts: request.attempts,
  });
  const caller: Caller = { id: tenant.id, apiKey: tenant.apiKey };
  const services: Services = {
    store,
    clock: settings.clock,
    limits: settings.limits,
    bodyLimit: settings.bodyLimit,
    profiles: new ProfileCache(store, settings.profileCacheMb),
    threadPages: new ThreadPageCache(0),
  };
  const { checkpoint, resumed } = Checkpoint.open(request.dryRun ? null : request.checkpointFile, source.base.href, tenant.id);
  if (resumed) output.out(`Resuming from ${request.checkpointFile}.`);
  output.opened?.(() => checkpoint.save());
  const copier = new Copier(source, services, caller, checkpoint, {
    organizationIds: request.organizationIds,
    dryRun: request.dryRun,
    concurrency: request.concurrency,
    pageSize: PAGE_SIZE,
    maxBatch: settings.limits.maxBatch,
    progress: (c, step) => {
      const counts = Object.entries(c.counts)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(', ');
      output.progress(`${request.dryRun ? 'read' : 'copied'}: ${counts} (${step})`);
    },
    warn: (line) => output.warn(line),
  });
  await copier.run();
  checkpoint.save();
  output.done();
  const records = Object.values(checkpoint.counts).reduce((a, b) => a + b, 0);
  const seconds = (Date.now() - started) / 1000;
  output.out(
    `${request.dryRun ? 'Dry run: counted' : 'Imported'} ${Object.entries(checkpoint.counts)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ')} in ${seconds.toFixed(1)} s (${source.requests} requests to the source).`,
  );
  if (request.dryRun) {
    for (const [document, c] of [...copier.sourceCounts].sort(([a], [b]) => (a < b ? -1 : 1)))
      output.out(`${document}  ${c.threads}/${c.comments}/${c.unread} threads/comments/unread`);
    return { differing: [], records, seconds };
  }
  const here = await countsHere(services, caller, [...copier.sourceCounts.keys()]);
  for (const line of comparisonLines(copier.sourceCounts, here)) output.out(line);
  return { differing: differences(copier.sourceCounts, here).map((d) => d.document), records, seconds };
}

/** The same counts as the source's, read here through the same reads ("org/doc" keys). */
/** Every row of a paged read here, page after page: `read` answers a page's rows (JSON text) and the next token. */
async function everyPage(
  read: (pageToken: string | null) => Promise<{ rows: string; next: string | null | undefined }>,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let pageToken: string | null = null;
  do {
    const page = await read(pageToken);
    rows.push(...(JSON.parse(page.rows) as Record<string, unknown>[]));
    pageToken = page.next ?? null;
  } while (pageToken);
  return rows;
}

async function countsHere(services: Services, caller: Caller, documents: string[]): Promise<Map<string, DocumentCounts>> {
  const counts = new Map<string, DocumentCounts>();
  for (const key of documents) {
    const slash = key.indexOf('/');
    const organizationId = key.slice(0, slash);
    const documentId = key.slice(slash + 1);
    const page = { organizationId, documentId, pageSize: PAGE_SIZE };
    const threads = await everyPage(async (pageToken) => {
      const got = await getAnnotations(services, caller, { ...page, ...(pageToken ? { pageToken } : {}) });
      return { rows: got.data.toString('utf8'), next: got.nextPageToken };
    });
    const notifications = await everyPage(async (pageToken) => {
      const got = await getNotifications(services, caller, { ...page, ...(pageToken ? { pageToken } : {}) });
      return { rows: got.notificationsJson, next: got.nextPageToken };
    });
    counts.set(key, { ...threadCounts(threads), unread: unreadOf(notifications) });
  }
  return counts;
}
