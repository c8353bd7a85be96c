import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

type Method = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const METHODS: Method[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/**
 * The server's logger: pino, except that the child Fastify makes for every request (to stamp each line with
 * the request's id) is made only when that request writes a line. Most requests write none — fast reads are
 * counted by the request log — and making a pino child costs more than the whole of a cached read's own work.
 */
class AppLogger {
  constructor(readonly pino: Logger) {}

  protected target(): Logger {
    return this.pino;
  }

  get level(): string {
    return this.target().level;
  }

  set level(level: string) {
    this.target().level = level;
  }

  /** Fastify reads the level names when a route sets its own log level. */
  get levels(): Logger['levels'] {
    return this.pino.levels;
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return new DeferredChild(this.target(), bindings, options) as unknown as FastifyBaseLogger;
  }

  /** Writes out what the asynchronous destination still holds (at shutdown). */
  flush(): void {
    this.pino.flush();
  }
}

/** A child logger that becomes a real pino child on its first use. */
class DeferredChild extends AppLogger {
  private made: Logger | undefined;

  constructor(
    parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions | undefined,
  ) {
    super(parent);
  }

  protected override target(): Logger {
    if (this.made === undefined) this.made = this.pino.child(this.bindings, this.options);
    return this.made;
  }

  override get level(): string {
    return this.made?.level ?? this.options?.level ?? this.pino.level;
  }

  override set level(level: string) {
    this.target().level = level;
  }
}

// The six level methods forward to pino with the same arguments. A line below the level is dropped before a
// deferred child would be made for it.
for (const method of METHODS) {
  Object.defineProperty(AppLogger.prototype, method, {
    value: function (this: AppLogger, ...args: unknown[]) {
      const values = this.pino.levels.values;
      if (values[method] < (values[this.level] ?? Number.POSITIVE_INFINITY)) return;
      const target = (this as unknown as { target(): Logger }).target();
      (target[method] as (...a: unknown[]) => void).apply(target, args);
    },
    writable: true,
    configurable: true,
  });
}

/** Wraps a pino logger for Fastify's `loggerInstance`. */
export function appLogger(logger: Logger): FastifyBaseLogger {
  return new AppLogger(logger) as unknown as FastifyBaseLogger;
}
