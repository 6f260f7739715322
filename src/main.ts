#!/usr/bin/env node
// The `marginalia` command, and the only module that reads process.env and process.argv.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  CliError,
  ORGS_LIST_USAGE,
  USERS_ERASE_USAGE,
  eraseRequest,
  keysCreate,
  keysList,
  keysRevoke,
  keysRotateSigningKey,
  keysSetDisabled,
  orgsList,
  orgsListRequest,
  tokensCreate,
  tokensRevoke,
  usersErase,
  type Io,
} from './cli/commands.js';
import { helpFor } from './cli/help.js';
import type { Config } from './config/index.js';
import type { Store } from './store/store.js';
import { VERSION } from './version.js';

// Modules that only some commands need are imported when one of them runs (`await import`): the
// server (Fastify, pino and every route: some 800 files), the configuration and the store (TypeBox,
// the drivers), the webhook and seed services. Imported here, they made every command, even
// --version, take one to three seconds to start, and gave V8 more code to optimize in background
// jobs that Node waits for as the process exits (NodePlatform::DrainTasks, where a deadlock in Node
// itself, nodejs/node#54918, is the likely cause of a CLI run that once hung after its work).
const webhooks = () => import('./cli/webhooks.js');
const backups = () => import('./cli/backup.js');
const workspace = () => import('./cli/workspace.js');
const retention = () => import('./cli/retention.js');
const importer = () => import('./cli/import.js');

const COMMANDS_WITH_SUBCOMMANDS = ['keys', 'tokens', 'orgs', 'users', 'webhooks', 'workspace', 'retention', 'email'];

/** Every option of every command, declared once: parseArgs reads them, and commandFor's type is made from them. */
const CLI_OPTIONS = {
  name: { type: 'string' },
  demo: { type: 'boolean' },
  tenant: { type: 'string' },
  org: { type: 'string', multiple: true },
  user: { type: 'string', multiple: true },
  url: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  id: { type: 'string' },
  event: { type: 'string' },
  since: { type: 'string' },
  'notifications-days': { type: 'string' },
  'notifications-scope': { type: 'string' },
  'resolved-threads-days': { type: 'string' },
  'events-days': { type: 'string' },
  'activities-days': { type: 'string' },
  inherit: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  from: { type: 'string' },
  'api-key': { type: 'string' },
  'auth-token': { type: 'string' },
  checkpoint: { type: 'string' },
  concurrency: { type: 'string' },
  rate: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type CliOptions = ReturnType<typeof parseArgs<{ options: typeof CLI_OPTIONS; allowPositionals: true; strict: true }>>['values'];

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: CLI_OPTIONS,
  });
  const [command = 'serve', sub, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // A command group alone (`marginalia keys`) is a question about it: its help answers.
  if (values.help || command === 'help' || (COMMANDS_WITH_SUBCOMMANDS.includes(command) && sub === undefined)) {
    process.stdout.write(`${helpFor(command === 'help' ? sub : positionals[0])}\n`);
    return 0;
  }
  const { loadConfig } = await import('./config/index.js');
  const loaded = loadConfig(env);
  if (!loaded.ok) {
    process.stderr.write(`marginalia: invalid configuration:\n${loaded.errors.map((e) => `  - ${e}\n`).join('')}`);
    return 1;
  }
  const config = loaded.config;
  if (command === 'serve') {
    // The port is answered before the server's modules load (src/http/early-listener.ts). With workers
    // the primary hands connections out; each worker takes them once it is ready.
    const early =
      config.workers > 1
        ? null
        : await (await import('./http/early-listener.js')).listenEarly(config.port, config.host, config.http);
    const { serve } = await import('./server.js');
    await serve(config, process.stderr, early);
    return null;
  }
  const io: Io = { out: (line) => process.stdout.write(`${line}\n`) };
  // Backup and restore take the database as it is: opened as a store, it would be migrated first.
  if (command === 'backup' || command === 'restore') {
    const b = await backups();
    const [file] = sub === undefined || rest.length > 0 ? [] : [sub];
    if (file === undefined) throw new CliError(`usage: marginalia ${command === 'backup' ? b.BACKUP_USAGE : b.RESTORE_USAGE}`, 2);
    await (command === 'backup' ? b.backup : b.restore)(config, io, file);
    return 0;
  }
  // A test mail needs the SMTP settings, not the database.
  if (command === 'email') {
    const e = await import('./cli/email.js');
    if (sub !== 'test' || rest.length !== 1) throw new CliError(`unknown command "email ${sub ?? ''}"\n\n${helpFor('email')}`, 2);
    await e.emailTest(config, io, rest[0]!);
    return 0;
  }
  const action = await commandFor(command, sub, rest, values, config);
  // An operator's command is not the place to read a whole SQLite file for damage: the server does that.
  const { openStore } = await import('./store/open-store.js');
  const { describeMigration } = await import('./store/migrations/index.js');
  const store = await openStore(
    { ...config, sqliteCheckAtStart: 'off' },
    { onMigrated: (outcome) => command === 'migrate' && io.out(describeMigration(outcome)) },
  );
  try {
    await action(store, io);
  } finally {
    await store.close();
  }
  return 0;
}

type Action = (store: Store, io: Io) => Promise<void>;

async function commandFor(
  command: string,
  sub: string | undefined,
  args: string[],
  options: CliOptions,
  config: Config,
): Promise<Action> {
  const { name, demo } = options;
  const need = (n: number, usage: string): string[] => {
    if (args.length !== n) throw new CliError(`usage: marginalia ${usage}`, 2);
    return args;
  };
  const key = `${command} ${sub ?? ''}`.trim();
  switch (key) {
    case 'migrate':
      // The store migrates as it opens, and says what it did (openStore's onMigrated, in run).
      need(0, 'migrate');
      return async () => {};
    case 'seed':
      if (!demo) throw new CliError(`usage: marginalia seed --demo\n\n${helpFor('seed')}`, 2);
      return async (store, io) => (await import('./cli/seed.js')).seedDemo(store, io, config);
    case 'keys create':
      need(0, 'keys create --name <name>');
      if (!name) throw new CliError('usage: marginalia keys create --name <name>', 2);
      return (store, io) => keysCreate(store, io, name);
    case 'keys list':
      need(0, 'keys list');
      return keysList;
    case 'keys revoke': {
      const [apiKey] = need(1, 'keys revoke <apiKey>');
      return (store, io) => keysRevoke(store, io, apiKey!);
    }
    case 'keys disable':
    case 'keys enable': {
      const [apiKey] = need(1, `${key} <apiKey>`);
      return (store, io) => keysSetDisabled(store, io, apiKey!, sub === 'disable');
    }
    case 'keys rotate-signing-key': {
      const [apiKey] = need(1, 'keys rotate-signing-key <apiKey>');
      return (store, io) => keysRotateSigningKey(store, io, apiKey!);
    }
    case 'tokens create': {
      const [apiKey] = need(1, 'tokens create <apiKey>');
      return (store, io) => tokensCreate(store, io, apiKey!);
    }
    case 'tokens revoke': {
      const [apiKey, prefix] = need(2, 'tokens revoke <apiKey> <token-prefix>');
      return (store, io) => tokensRevoke(store, io, apiKey!, prefix!);
    }
    case 'orgs list': {
      need(0, ORGS_LIST_USAGE);
      const tenant = orgsListRequest(options);
      return (store, io) => orgsList(store, io, tenant);
    }
    case 'users erase': {
      need(0, USERS_ERASE_USAGE);
      const request = eraseRequest(options);
      return (store, io) => usersErase(store, io, request, config.erasureBatchSize);
    }
    case 'retention get': {
      const r = await retention();
      need(0, r.RETENTION_GET_USAGE);
      const request = r.retentionRequest(options, r.RETENTION_GET_USAGE);
      return (store, io) => r.retentionGet(store, io, request);
    }
    case 'retention set': {
      const r = await retention();
      need(0, r.RETENTION_SET_USAGE);
      const request = r.retentionSetRequest(options);
      return (store, io) => r.retentionSet(store, io, request);
    }
    case 'retention run': {
      const r = await retention();
      need(0, r.RETENTION_RUN_USAGE);
      const request = { ...r.retentionRequest(options, r.RETENTION_RUN_USAGE), dryRun: options['dry-run'] ?? false };
      return (store, io) => r.retentionRun(store, io, request, config.retentionBatchSize);
    }
    case 'import': {
      const i = await importer();
      need(0, i.IMPORT_USAGE);
      const request = i.importRequest(options, config);
      return (store, io) => i.importCommand(store, io, config, request, options.tenant);
    }
    case 'webhooks add': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_ADD_USAGE);
      const request = w.webhookAddRequest(options);
      return (store, io) => w.webhooksAdd(store, io, request, config.webhookAllowPrivate);
    }
    case 'webhooks list': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_LIST_USAGE);
      return (store, io) => w.webhooksList(store, io, options.tenant);
    }
    case 'webhooks delete': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_DELETE_USAGE);
      const id = w.webhookIdOption(options, w.WEBHOOKS_DELETE_USAGE);
      return (store, io) => w.webhooksDelete(store, io, options.tenant, id);
    }
    case 'webhooks deliveries': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_DELIVERIES_USAGE);
      const id = w.webhookIdOption(options, w.WEBHOOKS_DELIVERIES_USAGE);
      return (store, io) => w.webhooksDeliveries(store, io, options.tenant, id);
    }
    case 'workspace credentials': {
      const w = await workspace();
      need(0, w.WORKSPACE_CREDENTIALS_USAGE);
      return w.workspaceCredentials;
    }
    case 'webhooks replay': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_REPLAY_USAGE);
      const request = w.replayRequest(options);
      return (store, io) => w.webhooksReplay(store, io, options.tenant, request);
    }
    case 'webhooks recover': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_RECOVER_USAGE);
      const request = w.recoverRequest(options);
      return (store, io) => w.webhooksRecover(store, io, options.tenant, request, config.webhookRecoverBatchSize);
    }
    case 'webhooks enable': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_ENABLE_USAGE);
      const id = w.webhookIdOption(options, w.WEBHOOKS_ENABLE_USAGE);
      return (store, io) => w.webhooksEnable(store, io, options.tenant, id);
    }
    case 'webhooks rotate': {
      const w = await webhooks();
      need(0, w.WEBHOOKS_ROTATE_USAGE);
      const id = w.webhookIdOption(options, w.WEBHOOKS_ROTATE_USAGE);
      return (store, io) => w.webhooksRotate(store, io, options.tenant, id, config.webhookSecretGraceHours);
    }
    default:
      throw new CliError(
        `unknown command "${key}"\n\n${helpFor(COMMANDS_WITH_SUBCOMMANDS.includes(command) ? command : undefined)}`,
        2,
      );
  }
}

function fail(err: unknown): number {
  if (err instanceof CliError) {
    process.stderr.write(`marginalia: ${err.message}\n`);
    return err.exitCode;
  }
  const code = (err as { code?: string }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    process.stderr.write(`marginalia: ${(err as Error).message}\n\n${helpFor(undefined)}\n`);
    return 2;
  }
  process.stderr.write(`marginalia: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
}

run(process.argv.slice(2), process.env).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  // Exit at once: a failed start must not linger with half-open resources.
  (err) => process.exit(fail(err)),
);
