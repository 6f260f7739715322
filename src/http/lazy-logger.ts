// request.log without its cost on every request. Fastify gives each request a child of the server's
// logger bound to its request id; pino makes that child by serializing the bindings to JSON, about
// 2 us per request on the bench. Most requests log nothing (the per-request line is built only at
// LOG_LEVEL info), so the child is made when a request first logs.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level } from 'pino';

class LazyChild {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  // Methods on the prototype, not arrow fields: a request's logger costs one small object.
  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  private log(level: Level, args: unknown[]): void {
    (this.logger[level] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's childLoggerFactory: each request's logger, made on first use. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChild(logger, bindings, options) as unknown as FastifyBaseLogger;
}
