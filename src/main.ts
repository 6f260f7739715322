#!/usr/bin/env node
// The `marginalia` command, and the only module that reads process.env and process.argv.
import { parseArgs } from 'node:util';
import {
  CliError,
  ORGS_LIST_USAGE,
  USERS_ERASE_USAGE,
  eraseRequest,
  keysCreate,
  keysList,
  keysRevoke,
  keysSetDisabled,
  orgsList,
  orgsListRequest,
  tokensCreate,
  tokensRevoke,
  usersErase,
  type Io,
} from './cli/commands.js';
import { helpFor } from './cli/help.js';
import {
  WEBHOOKS_ADD_USAGE,
  WEBHOOKS_DELETE_USAGE,
  WEBHOOKS_DELIVERIES_USAGE,
  WEBHOOKS_LIST_USAGE,
  webhookAddRequest,
  webhookIdOption,
  webhooksAdd,
  webhooksDelete,
  webhooksDeliveries,
  webhooksList,
} from './cli/webhooks.js';
import { seedDemo } from './cli/seed.js';
import { loadConfig, type Config } from './config/index.js';
import { serve } from './server.js';
import { openStore } from './store/open-store.js';
import { VERSION } from './version.js';

const COMMANDS_WITH_SUBCOMMANDS = ['keys', 'tokens', 'orgs', 'users', 'webhooks'];

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      demo: { type: 'boolean' },
      tenant: { type: 'string' },
      org: { type: 'string', multiple: true },
      user: { type: 'string', multiple: true },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      id: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const [command = 'serve', sub, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (values.help || command === 'help') {
    process.stdout.write(`${helpFor(command === 'help' ? sub : positionals[0])}\n`);
    return 0;
  }
  const loaded = loadConfig(env);
  if (!loaded.ok) {
    process.stderr.write(`marginalia: invalid configuration:\n${loaded.errors.map((e) => `  - ${e}\n`).join('')}`);
    return 1;
  }
  const config = loaded.config;
  if (command === 'serve') {
    await serve(config, process.stderr);
    return null;
  }
  const io: Io = { out: (line) => process.stdout.write(`${line}\n`) };
  const action = commandFor(command, sub, rest, values, config);
  // An operator's command is not the place to read a whole SQLite file for damage: the server does that.
  const store = await openStore({ ...config, sqliteCheckAtStart: 'off' });
  try {
    await action(store, io);
  } finally {
    await store.close();
  }
  return 0;
}

type Action = (store: Awaited<ReturnType<typeof openStore>>, io: Io) => Promise<void>;

function commandFor(
  command: string,
  sub: string | undefined,
  args: string[],
  options: {
    name?: string;
    demo?: boolean;
    tenant?: string;
    org?: string[];
    user?: string[];
    url?: string;
    events?: string;
    description?: string;
    id?: string;
  },
  config: Config,
): Action {
  const { name, demo } = options;
  const need = (n: number, usage: string): string[] => {
    if (args.length !== n) throw new CliError(`usage: marginalia ${usage}`, 2);
    return args;
  };
  const key = `${command} ${sub ?? ''}`.trim();
  switch (key) {
    case 'migrate':
      return async () => {};
    case 'seed':
      if (!demo) throw new CliError(`usage: marginalia seed --demo\n\n${helpFor('seed')}`, 2);
      return (store, io) => seedDemo(store, io, config);
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
    case 'webhooks add': {
      need(0, WEBHOOKS_ADD_USAGE);
      const request = webhookAddRequest(options);
      return (store, io) => webhooksAdd(store, io, request, config.webhookAllowPrivate);
    }
    case 'webhooks list':
      need(0, WEBHOOKS_LIST_USAGE);
      return (store, io) => webhooksList(store, io, options.tenant);
    case 'webhooks delete': {
      need(0, WEBHOOKS_DELETE_USAGE);
      const id = webhookIdOption(options, WEBHOOKS_DELETE_USAGE);
      return (store, io) => webhooksDelete(store, io, options.tenant, id);
    }
    case 'webhooks deliveries': {
      need(0, WEBHOOKS_DELIVERIES_USAGE);
      const id = webhookIdOption(options, WEBHOOKS_DELIVERIES_USAGE);
      return (store, io) => webhooksDeliveries(store, io, options.tenant, id);
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
