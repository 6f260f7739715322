// Runs the service: open and migrate the store, make sure credentials exist, listen, and stop
// gracefully on SIGTERM/SIGINT (finish in-flight requests, then exit 0).
import { pino, type Logger } from 'pino';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { redactUrl, type Config } from './config.js';
import { API_KEY_HEADER, AUTH_TOKEN_HEADER } from './http/auth.js';
import { createFirstTenant, ensureBootstrapCredentials } from './services/credentials.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';

export function makeLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    // Credentials never reach a log line, even if a serializer starts logging headers.
    redact: { paths: [`req.headers["${API_KEY_HEADER}"]`, `req.headers["${AUTH_TOKEN_HEADER}"]`], censor: '[redacted]' },
  });
}

export async function serve(config: Config, stderr: NodeJS.WritableStream): Promise<void> {
  const logger = makeLogger(config);
  const where = config.database.kind === 'sqlite' ? `sqlite:${config.database.path}` : redactUrl(config.database.url);
  const store = await openStore(config, (err) => logger.warn({ err }, 'database connection lost while idle'));
  logger.info({ database: where }, 'database ready');
  await ensureCredentials(store, config, logger, stderr);

  const app = await buildApp({ config, store, logger });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close();
    await store.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

async function ensureCredentials(store: Store, config: Config, logger: Logger, stderr: NodeJS.WritableStream): Promise<void> {
  if (config.bootstrap) {
    const outcome = await ensureBootstrapCredentials(store, systemClock, config.bootstrap);
    const level = outcome === 'revoked' || outcome === 'disabled' ? 'warn' : 'info';
    logger[level]({ outcome }, `bootstrap API key from MARGINALIA_API_KEY: ${outcome}`);
    return;
  }
  const creds = await createFirstTenant(store, systemClock);
  if (!creds) return;
  stderr.write(
    '\n==================== Marginalia: first start ====================\n' +
    'The database had no tenants, so one was created. Keep these\n' +
    'credentials now: the token is stored only as a hash and is not shown again.\n\n' +
    `  x-service-api-key:    ${creds.apiKey}\n` +
    `  x-service-auth-token: ${creds.authToken}\n` +
    '=================================================================\n\n',
  );
}
