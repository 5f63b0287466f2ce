/**
 * Each request's logger, made when it first writes a line. Fastify gives every request a
 * child of the server's logger that carries its id; pino builds that child, its bindings'
 * JSON text included, at once, which was 3 % of one order's instructions (docs/performance.md,
 * issue 27, seventeenth pass), and at `warn` or above most requests write no line at all.
 * The logger here stands in for that child: the first line written at an enabled level (or
 * the first question about its level, or a child of it) makes pino's own child with the
 * same bindings and options, and everything goes to it from then on; a line at a level
 * that is off costs a comparison. A route with a level of its own, or a server logger that
 * is not pino's, gets its child at once.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
/** The server's logger: pino's, which can say whether a level is on. */
interface Logger extends FastifyBaseLogger {
  isLevelEnabled(level: Level): boolean;
}

type Line = (this: RequestLogger, ...args: unknown[]) => void;

class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    readonly parent: Logger,
    readonly bindings: Bindings,
    readonly options: ChildLoggerOptions,
  ) {}

  /** pino's child for this request, made the first time it is needed. */
  real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.real().level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  declare fatal: Line;
  declare error: Line;
  declare warn: Line;
  declare info: Line;
  declare debug: Line;
  declare trace: Line;
  declare silent: Line;
}

/** The method for one level: written by the child when the level is on, else nothing. */
const line = (level: Level): Line =>
  function (this: RequestLogger, ...args: unknown[]) {
    if (!this.parent.isLevelEnabled(level)) return;
    const child = this.real();
    Reflect.apply(child[level], child, args);
  };

for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const)
  RequestLogger.prototype[level] = line(level);
RequestLogger.prototype.silent = () => undefined;

/** Fastify's `childLoggerFactory`: a request's logger made on first use. */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> =
  function (logger, bindings, options) {
    const parent = logger as Logger;
    // A logger that cannot say which levels are on (not pino) gets its child as Fastify
    // makes it; so does a route with a level of its own.
    if (options.level !== undefined || typeof parent.isLevelEnabled !== 'function')
      return parent.child(bindings, options);
    return new RequestLogger(parent, bindings, options);
  };
