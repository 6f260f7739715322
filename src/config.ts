// Every setting of the service, read from an environment object in one place and validated at once,
// so that a bad deployment fails at start with every problem named instead of at the first request.
import { DEFAULT_AUTH_FAILURE_FLOOR_MS } from './http/auth.js';
import { DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './http/connections.js';
import { DEFAULT_LIMITS, type InputLimits } from './schemas/common.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type DatabaseTarget =
  | { kind: 'sqlite'; path: string } // path ':memory:' is a throwaway database
  | { kind: 'postgres'; url: string };

export type SqliteSynchronous = 'NORMAL' | 'FULL';
/** How a SQLite file is checked for damage when opened: PRAGMA quick_check, integrity_check, or not at all. */
export type SqliteCheck = 'quick' | 'full' | 'off';
const SQLITE_CHECKS: readonly SqliteCheck[] = ['quick', 'full', 'off'];

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  logLevel: LogLevel;
  /** Both set or both absent: the credentials the server ensures at start. */
  bootstrap: { apiKey: string; authToken: string } | null;
  bodyLimit: number;
  /** Deepest nesting of objects and arrays a request body may have. */
  maxJsonDepth: number;
  /** Requests per second per API key; 0 turns limiting off. The burst is twice this. */
  rateLimit: number;
  /** Bounds on request arrays and free text, which the request schemas are built with. */
  limits: InputLimits;
  /** A 401 for a wrong key or token takes at least this long, so its timing tells nothing. */
  authFailureFloorMs: number;
  /** Shares rate-limit buckets among instances; null keeps them in each process. */
  redisUrl: string | null;
  redisTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** How long a connection may take to send a request, or sit idle. */
  http: HttpTimeouts;
  sqliteBusyTimeoutMs: number;
  sqliteSynchronous: SqliteSynchronous;
  sqliteCheckAtStart: SqliteCheck;
  pgSchema: string;
  pgPoolSize: number;
  pgConnectTimeoutMs: number;
  pgStatementTimeoutMs: number;
  /** Worker processes serving one port (node:cluster); 1 serves from this process. */
  workers: number;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

/** One documented setting: its variable, default and meaning. The README table is written from this list. */
export interface SettingDoc {
  name: string;
  default: string;
  meaning: string;
}

export const SETTINGS: readonly SettingDoc[] = [
  { name: 'PORT', default: '8080', meaning: 'TCP port to listen on (0 picks a free one).' },
  { name: 'HOST', default: '127.0.0.1', meaning: 'Interface to listen on; `0.0.0.0` for all.' },
  {
    name: 'DATABASE_URL',
    default: 'sqlite:./data/marginalia.db',
    meaning: '`sqlite:<path>`, `sqlite::memory:` (throwaway), or `postgres://...` / `postgresql://...` for PostgreSQL.',
  },
  { name: 'LOG_LEVEL', default: 'info', meaning: 'fatal, error, warn, info, debug, trace or silent.' },
  {
    name: 'MARGINALIA_API_KEY',
    default: '(unset)',
    meaning: 'Bootstrap API key, ensured at start together with MARGINALIA_AUTH_TOKEN.',
  },
  {
    name: 'MARGINALIA_AUTH_TOKEN',
    default: '(unset)',
    meaning: 'Bootstrap auth token (at least 16 characters); stored only as a hash.',
  },
  { name: 'MARGINALIA_BODY_LIMIT', default: '1048576', meaning: 'Largest request body in bytes; larger bodies get 413.' },
  {
    name: 'MARGINALIA_MAX_JSON_DEPTH',
    default: '32',
    meaning: 'Deepest nesting of objects and arrays in a request body; deeper bodies get 400.',
  },
  {
    name: 'MARGINALIA_MAX_BATCH',
    default: '1000',
    meaning:
      'Most entries in any array of a request (users, commentAnnotations, commentData, notifyUsers and the id filters); longer arrays get 400. At least 1000, which SPEC 4 promises callers.',
  },
  {
    name: 'MARGINALIA_MAX_TEXT_LENGTH',
    default: '100000',
    meaning:
      'Longest free text in code points (commentText, commentHtml, displayHeadlineMessageTemplate, displayBodyMessage); longer gets 400.',
  },
  {
    name: 'MARGINALIA_RATE_LIMIT',
    default: '1000',
    meaning: 'Requests per second per API key, burst twice that; 0 turns it off.',
  },
  {
    name: 'MARGINALIA_AUTH_FAILURE_FLOOR_MS',
    default: String(DEFAULT_AUTH_FAILURE_FLOOR_MS),
    meaning:
      'A 401 for an unknown key or a wrong token is answered no sooner than this after the check began, so its timing cannot tell which keys exist (and guessing is slower). Correct credentials never wait. 0 turns it off.',
  },
  {
    name: 'MARGINALIA_REDIS_URL',
    default: '(unset)',
    meaning:
      '`redis://...`: share the rate limit of each API key among all instances through this Redis. Unset, each process limits on its own.',
  },
  {
    name: 'MARGINALIA_REDIS_TIMEOUT_MS',
    default: '100',
    meaning:
      'How long a rate-limit check waits for Redis before counting the request locally instead (the service keeps serving without Redis).',
  },
  {
    name: 'MARGINALIA_SHUTDOWN_TIMEOUT_MS',
    default: '10000',
    meaning: 'On SIGTERM, how long in-flight requests may take before the process exits anyway.',
  },
  {
    name: 'MARGINALIA_HTTP_HEADERS_TIMEOUT_MS',
    default: String(DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs),
    meaning:
      'How long a client has to send the request line and headers; past it the request gets 408 and the connection closes. Also closes connections that never send a request.',
  },
  {
    name: 'MARGINALIA_HTTP_REQUEST_TIMEOUT_MS',
    default: String(DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs),
    meaning:
      'How long a client has to send the whole request, body included; past it the request gets 408 and the connection closes.',
  },
  {
    name: 'MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    default: String(DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs),
    meaning:
      'How long a kept-alive connection may wait for its next request. Keep it above the idle timeout of a load balancer in front (often 60 s).',
  },
  {
    name: 'MARGINALIA_HTTP_IDLE_TIMEOUT_MS',
    default: String(DEFAULT_HTTP_TIMEOUTS.idleTimeoutMs),
    meaning: 'A connection on which nothing moves in either direction for this long is closed, whatever its state.',
  },
  {
    name: 'MARGINALIA_SQLITE_BUSY_TIMEOUT_MS',
    default: '5000',
    meaning: 'How long a SQLite write waits for another writer before failing with 503.',
  },
  {
    name: 'MARGINALIA_SQLITE_SYNCHRONOUS',
    default: 'NORMAL',
    meaning: '`NORMAL` survives a process crash; `FULL` also survives power loss, at the cost of an fsync per write.',
  },
  {
    name: 'MARGINALIA_SQLITE_CHECK_AT_START',
    default: 'quick',
    meaning:
      'How the SQLite file is checked for damage at start: `quick` (PRAGMA quick_check, about 2 s per GB), `full` (integrity_check, slower, also checks indexes against tables) or `off`. Damage found makes /readyz fail and writes answer 503 (docs/operations.md).',
  },
  {
    name: 'MARGINALIA_WORKERS',
    default: '1',
    meaning: 'Worker processes serving the one port (node:cluster), e.g. one per core; 1 serves from the main process.',
  },
  { name: 'MARGINALIA_PG_SCHEMA', default: 'public', meaning: 'PostgreSQL schema holding the tables; created if missing.' },
  { name: 'MARGINALIA_PG_POOL_SIZE', default: '10', meaning: 'PostgreSQL connections per process.' },
  {
    name: 'MARGINALIA_PG_CONNECT_TIMEOUT_MS',
    default: '2000',
    meaning: 'How long to wait for a PostgreSQL connection before answering 503.',
  },
  {
    name: 'MARGINALIA_PG_STATEMENT_TIMEOUT_MS',
    default: '5000',
    meaning: 'Longest a PostgreSQL statement may run before it is cancelled and the request answered 503.',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

export function loadConfig(env: Env): ConfigResult {
  const errors: string[] = [];
  const read = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v === '' ? undefined : v;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      errors.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
      return fallback;
    }
    return Number(raw);
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';

  const database = parseDatabaseUrl(read('DATABASE_URL') ?? 'sqlite:./data/marginalia.db', errors);

  const rawLevel = read('LOG_LEVEL') ?? 'info';
  const logLevel = LOG_LEVELS.find((l) => l === rawLevel.toLowerCase());
  if (!logLevel) errors.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${rawLevel}".`);

  const apiKey = read('MARGINALIA_API_KEY');
  const authToken = read('MARGINALIA_AUTH_TOKEN');
  let bootstrap: Config['bootstrap'] = null;
  if ((apiKey === undefined) !== (authToken === undefined)) {
    errors.push('MARGINALIA_API_KEY and MARGINALIA_AUTH_TOKEN must be set together, or neither.');
  } else if (apiKey !== undefined && authToken !== undefined) {
    if (!CREDENTIAL_SHAPE.test(apiKey))
      errors.push(`MARGINALIA_API_KEY must be 1 to 256 visible ASCII characters without spaces.`);
    if (!CREDENTIAL_SHAPE.test(authToken) || authToken.length < 16) {
      errors.push('MARGINALIA_AUTH_TOKEN must be 16 to 256 visible ASCII characters without spaces.');
    }
    bootstrap = { apiKey, authToken };
  }

  const bodyLimit = int('MARGINALIA_BODY_LIMIT', 1_048_576, 1024, 1024 * 1024 * 1024);
  const maxJsonDepth = int('MARGINALIA_MAX_JSON_DEPTH', 32, 4, 1000);
  const limits: InputLimits = {
    // SPEC 4 promises callers 1000 entries: the setting can only widen that.
    maxBatch: int('MARGINALIA_MAX_BATCH', DEFAULT_LIMITS.maxBatch, DEFAULT_LIMITS.maxBatch, 100_000),
    maxTextLength: int('MARGINALIA_MAX_TEXT_LENGTH', DEFAULT_LIMITS.maxTextLength, 1, 100_000_000),
  };
  const rateLimit = int('MARGINALIA_RATE_LIMIT', 1000, 0, 1_000_000_000);
  const authFailureFloorMs = int('MARGINALIA_AUTH_FAILURE_FLOOR_MS', DEFAULT_AUTH_FAILURE_FLOOR_MS, 0, 10_000);
  const redisUrl = read('MARGINALIA_REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/./.test(redisUrl))
    errors.push(`MARGINALIA_REDIS_URL must start with redis:// or rediss://, got "${redactUrl(redisUrl)}".`);
  const redisTimeoutMs = int('MARGINALIA_REDIS_TIMEOUT_MS', 100, 1, 60_000);
  const shutdownTimeoutMs = int('MARGINALIA_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 3_600_000);
  const http: HttpTimeouts = {
    headersTimeoutMs: int('MARGINALIA_HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.headersTimeoutMs, 100, 3_600_000),
    requestTimeoutMs: int('MARGINALIA_HTTP_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.requestTimeoutMs, 100, 3_600_000),
    keepAliveTimeoutMs: int('MARGINALIA_HTTP_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.keepAliveTimeoutMs, 100, 3_600_000),
    idleTimeoutMs: int('MARGINALIA_HTTP_IDLE_TIMEOUT_MS', DEFAULT_HTTP_TIMEOUTS.idleTimeoutMs, 100, 3_600_000),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    errors.push(
      'MARGINALIA_HTTP_HEADERS_TIMEOUT_MS must not be larger than MARGINALIA_HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request).',
    );
  }
  const sqliteBusyTimeoutMs = int('MARGINALIA_SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000);
  const rawSync = (read('MARGINALIA_SQLITE_SYNCHRONOUS') ?? 'NORMAL').toUpperCase();
  if (rawSync !== 'NORMAL' && rawSync !== 'FULL')
    errors.push(`MARGINALIA_SQLITE_SYNCHRONOUS must be NORMAL or FULL, got "${rawSync}".`);

  const rawCheck = (read('MARGINALIA_SQLITE_CHECK_AT_START') ?? 'quick').toLowerCase();
  const sqliteCheckAtStart = SQLITE_CHECKS.find((c) => c === rawCheck);
  if (!sqliteCheckAtStart)
    errors.push(`MARGINALIA_SQLITE_CHECK_AT_START must be one of ${SQLITE_CHECKS.join(', ')}, got "${rawCheck}".`);

  const workers = int('MARGINALIA_WORKERS', 1, 1, 64);
  const pgSchema = read('MARGINALIA_PG_SCHEMA') ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(pgSchema)) {
    errors.push(`MARGINALIA_PG_SCHEMA must be a lowercase identifier (a-z, 0-9, _; at most 63), got "${pgSchema}".`);
  }
  const pgPoolSize = int('MARGINALIA_PG_POOL_SIZE', 10, 1, 1000);
  const pgConnectTimeoutMs = int('MARGINALIA_PG_CONNECT_TIMEOUT_MS', 2000, 1, 600_000);
  const pgStatementTimeoutMs = int('MARGINALIA_PG_STATEMENT_TIMEOUT_MS', 5000, 1, 3_600_000);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      port,
      host,
      database,
      logLevel: logLevel!,
      bootstrap,
      bodyLimit,
      maxJsonDepth,
      limits,
      rateLimit,
      authFailureFloorMs,
      redisUrl,
      redisTimeoutMs,
      shutdownTimeoutMs,
      http,
      sqliteBusyTimeoutMs,
      sqliteSynchronous: rawSync as SqliteSynchronous,
      sqliteCheckAtStart: sqliteCheckAtStart!,
      pgSchema,
      pgPoolSize,
      pgConnectTimeoutMs,
      pgStatementTimeoutMs,
      workers,
    },
  };
}

/** What a header value can carry safely and what we accept as a credential. */
const CREDENTIAL_SHAPE = /^[\x21-\x7e]{1,256}$/;

function parseDatabaseUrl(url: string, errors: string[]): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') errors.push('DATABASE_URL "sqlite:" needs a path, e.g. sqlite:./data/marginalia.db or sqlite::memory:.');
    return { kind: 'sqlite', path: path === ':memory:' ? ':memory:' : path };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { kind: 'postgres', url };
  errors.push(`DATABASE_URL must start with sqlite:, postgres:// or postgresql://, got "${redactUrl(url)}".`);
  return { kind: 'sqlite', path: ':memory:' };
}

/** Hides a password in a database URL before it reaches a log or an error message. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
