// `marginalia import` (docs/operations.md, "Importing"): the options checked, the tenant here chosen as the other
// commands choose it, and the copy run (src/import/) with its progress on stderr and its outcome on stdout.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock } from '../clock.js';
import type { Config } from '../config/index.js';
import { runImport, type ImportRequest } from '../import/importer.js';
import { SourceError, sourceBase } from '../import/source.js';
import type { Store } from '../store/store.js';
import { CliError, chosenTenant, type Io } from './commands.js';

export const IMPORT_USAGE =
  'import --from <base-url> --api-key <key> --auth-token <token> [--org <id> ...] [--tenant <tenant>] [--dry-run]\n' +
  '         [--checkpoint <file>] [--concurrency <n>] [--rate <requests per second>]';

/** Where the checkpoint is kept unless --checkpoint says: the working directory. */
export const DEFAULT_CHECKPOINT = 'marginalia-import.checkpoint.json';

interface ImportOptions {
  from?: string;
  'api-key'?: string;
  'auth-token'?: string;
  org?: string[];
  'dry-run'?: boolean;
  checkpoint?: string;
  concurrency?: string;
  rate?: string;
}

const whole = (option: string, given: string | undefined, fallback: number, max: number): number => {
  if (given === undefined) return fallback;
  if (!/^\d+$/.test(given) || Number(given) < 1 || Number(given) > max)
    throw new CliError(`--${option} takes a whole number from 1 to ${max}, not "${given}".`, 2);
  return Number(given);
};

export function importRequest(options: ImportOptions, config: Config): ImportRequest {
  const { from } = options;
  const apiKey = options['api-key'];
  const authToken = options['auth-token'];
  if (!from || !apiKey || !authToken) throw new CliError(`usage: marginalia ${IMPORT_USAGE}`, 2);
  try {
    sourceBase(from);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
  const organizationIds = [...new Set(options.org ?? [])];
  const dryRun = options['dry-run'] ?? false;
  return {
    from,
    apiKey,
    authToken,
    organizationIds: organizationIds.length > 0 ? organizationIds : null,
    dryRun,
    checkpointFile: resolve(options.checkpoint ?? DEFAULT_CHECKPOINT),
    concurrency: whole('concurrency', options.concurrency, config.importConcurrency, 64),
    rate: whole('rate', options.rate, config.importRate, 10_000),
    timeoutMs: config.importTimeoutMs,
    attempts: config.importAttempts,
  };
}

/** A line redrawn in place on a terminal; plain lines, at most one a second, otherwise. */
function progressOn(stream: NodeJS.WriteStream) {
  let last = 0;
  let drawn = false;
  return {
    progress(line: string) {
      if (stream.isTTY) {
        const width = (stream.columns ?? 80) - 1;
        stream.write(`\r${line.slice(0, width).padEnd(width)}`);
        drawn = true;
        return;
      }
      const now = Date.now();
      if (now - last < 1000) return;
      last = now;
      stream.write(`${line}\n`);
    },
    /** On a line of its own: below a line drawn in place, which the next progress draws again. */
    warn(line: string) {
      stream.write(`${drawn ? '\n' : ''}${line}\n`);
      drawn = false;
    },
    done() {
      if (drawn) stream.write('\n');
    },
  };
}

export async function importCommand(store: Store, io: Io, config: Config, request: ImportRequest, tenant: string | undefined) {
  const here = await chosenTenant(store, tenant);
  const settings = {
    limits: config.limits,
    bodyLimit: config.bodyLimit,
    profileCacheMb: config.profileCacheMb,
    clock: systemClock,
  };
  let outcome: Awaited<ReturnType<typeof runImport>>;
  // Ctrl-C stops at once, the steps done saved first: a save is synchronous, so it is whole whenever this runs.
  let save = () => {};
  const interrupted = () => {
    save();
    process.stderr.write(`\nmarginalia: interrupted; run the same command again to resume from ${request.checkpointFile}.\n`);
    process.exit(130);
  };
  if (!request.dryRun) process.once('SIGINT', interrupted);
  try {
    const output = { out: io.out, ...progressOn(process.stderr), opened: (saving: () => void) => (save = saving) };
    outcome = await runImport(store, here, settings, request, output);
  } catch (err) {
    if (err instanceof SourceError) throw new CliError(`${err.message}\nRun the same command again to resume.`);
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
  }
  if (outcome.differing.length > 0)
    throw new CliError(`The counts differ for ${outcome.differing.length} document(s): ${outcome.differing.join(', ')}`);
  // Done and equal: the next import starts over (re-reading everything; writes of what is here already are skipped).
  if (!request.dryRun && request.checkpointFile !== null) rmSync(request.checkpointFile, { force: true });
}
