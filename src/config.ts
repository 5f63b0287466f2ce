/**
 * Configuration: the one place that reads `process.env`.
 *
 * Every variable is declared once in `EnvSchema` (type, default, description); `loadConfig`
 * converts and validates them and returns a frozen, typed `Config`. A bad value stops
 * start-up with a message naming the variable, never a stack trace, and never echoing a
 * secret, token or URL.
 */
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The longest duration a variable may name: what `setTimeout` can wait (2^31-1 ms). Node
 * runs a longer timer after 1 ms, so an hour too many would become a busy loop.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The most requests a per-window limit may allow: past it the limit limits nothing anyone
 * could send (0 turns a limit off), and a typo of a few digits too many is refused.
 */
const MAX_REQUESTS_PER_WINDOW = 1_000_000;

/** The secret `deploy/booking.env.example` once shipped, and anything like it: public. */
const PLACEHOLDER_SECRET = /^change-me/i;

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'HTTP port' }),
  HOST: Type.String({
    minLength: 1,
    default: '127.0.0.1',
    description: 'Interface to listen on: an IP address or a host name, without port or scheme',
  }),
  TRUST_PROXY: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Load balancers whose X-Forwarded-For names the client, comma-separated addresses or CIDR ranges (127.0.0.1 behind deploy/haproxy.cfg); unset: the peer is the client',
    }),
  ),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: 'PostgreSQL connection string; unset means the embedded database',
    }),
  ),
  DATA_DIR: Type.String({
    minLength: 1,
    default: './data',
    description: 'Embedded data directory',
  }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DATABASE_SESSION_LIMITS: Type.Boolean({
    default: true,
    description:
      'Send statement_timeout and idle_in_transaction_session_timeout when connecting; false behind a pooler that refuses startup parameters (PgBouncer), with the limits set on the role',
  }),
  MIGRATE_ON_START: Type.Optional(Type.Boolean({ description: 'Default: true when embedded' })),
  DEMO_PAGE: Type.Optional(
    Type.Boolean({
      description:
        'Serve /demo, the checkout widget on a sample seller made on first visit; default: true on the embedded database in a sandbox or listening on loopback',
    }),
  ),
  BOOKING_ENV: Type.Enum(['production', 'sandbox'], { default: 'production' }),
  BOOKING_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        'Server secret (at least 32 characters); required with DATABASE_URL, where every process must share it',
    }),
  ),
  BOOKING_SECRET_PREVIOUS: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'During a secret rotation: the secret being replaced (docs/operations.md)',
    }),
  ),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description:
        'The mail relay, smtp://[user:password@]host[:port] or smtps://; unset keeps mail queued',
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      maxLength: 256,
      description:
        'A Bearer token that GET /metrics requires; unset: only clients on this host, not forwarded, may scrape',
    }),
  ),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Bookings <bookings@localhost>' }),
  OUTBOX_POLL_MS: Type.Integer({
    minimum: 10,
    maximum: 3_600_000,
    default: 1000,
    description: 'Mail dispatcher poll interval',
  }),
  OUTBOX_RETRY_BASE_MS: Type.Integer({
    minimum: 1,
    // The retry delay is capped at 1 h whatever the base (mail/dispatcher.ts).
    maximum: 3_600_000,
    default: 5000,
    description: 'First retry delay of a failed email; doubles per attempt up to 1 h',
  }),
  OUTBOX_GIVE_UP_AFTER_MS: Type.Integer({
    minimum: 0,
    // Two weeks: past that a confirmation is stale, and `cli outbox retry` brings one back.
    maximum: 14 * 24 * 3_600_000,
    default: 72 * 3_600_000,
    description:
      'How long the retries of a failed email go on before it is marked failed (about 3 days, as for webhooks); a refusal of the recipient fails at once',
  }),
  OUTBOX_SEND_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 60_000,
    default: 20_000,
    description:
      'The longest one email may take, from its claim to the relay accepting it; the claim lasts a quarter longer, and a shutdown waits this long for sends in flight',
  }),
  WEBHOOK_DISPATCH: Type.Boolean({
    default: true,
    description: 'Whether this process delivers webhooks (any number of processes may)',
  }),
  WEBHOOK_POLL_MS: Type.Integer({
    minimum: 10,
    maximum: 60_000,
    default: 500,
    description: 'Webhook dispatcher poll interval',
  }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 10_000,
    description: 'A delivery not answered 2xx within this is a failure',
  }),
  WEBHOOK_RETRY_SCHEDULE_MS: Type.String({
    pattern: '^[0-9]+(,[0-9]+)*$',
    maxLength: 1000,
    default:
      '5000,300000,1800000,7200000,18000000,36000000,36000000,36000000,36000000,36000000,36000000',
    description:
      'Delays before each retry of a failed delivery (jittered); after the last one fails the hook is disabled. Default: about 3 days',
  }),
  WEBHOOK_CONCURRENCY_PER_HOST: Type.Integer({ minimum: 1, maximum: 100, default: 4 }),
  WEBHOOK_CONCURRENCY_PER_OWNER: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 8,
    description: "Webhook requests in flight at once to one owner's hooks, whatever their hosts",
  }),
  ORDER_HOLD_MS: Type.Integer({
    minimum: 1000,
    maximum: 7 * 24 * 3_600_000,
    default: 15 * 60_000,
    description: 'How long a hold (item status 103) keeps its seats before they are released',
  }),
  ORDER_HOLD_SWEEP: Type.Boolean({
    default: true,
    description: 'Whether this process releases expired holds (any number of processes may)',
  }),
  ORDER_HOLD_SWEEP_MS: Type.Integer({
    minimum: 10,
    maximum: 600_000,
    default: 10_000,
    description: 'How often expired holds are looked for',
  }),
  RETENTION_DAYS: Type.Integer({
    // Above the mail caps' longest window (a day), which counts the outbox's rows.
    minimum: 2,
    maximum: 3650,
    default: 30,
    description:
      'How long settled emails, webhook deliveries (with what receivers answered) and domain events are kept before the retention sweep deletes them (idempotency keys: 24 h)',
  }),
  RETENTION_SWEEP: Type.Boolean({
    default: true,
    description: 'Whether this process runs the retention sweep (any number of processes may)',
  }),
  RETENTION_SWEEP_MS: Type.Integer({
    minimum: 1000,
    maximum: 86_400_000,
    default: 3_600_000,
    description: 'How often the retention sweep runs (and once at start)',
  }),
  POLL_HORIZON_MARGIN_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 1000,
    description:
      "The clock skew allowed between instances and the database: orders lists read past an updatedAt stop this long before the oldest open transaction's start (0 on the embedded database, which shares the process's clock)",
  }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
  }),
  RATE_LIMIT_MAX: Type.Integer({
    minimum: 0,
    maximum: MAX_REQUESTS_PER_WINDOW,
    default: 1000,
    description: 'Requests per window per credential; 0 disables rate limiting',
  }),
  RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, maximum: 86_400_000, default: 60_000 }),
  CHECKOUT_RATE_PER_KEY: Type.Integer({
    minimum: 0,
    maximum: MAX_REQUESTS_PER_WINDOW,
    default: 300,
    description:
      'Guest bookings made per window with one publishable key (every page embedding it); 0 turns it off',
  }),
  CHECKOUT_RATE_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: MAX_REQUESTS_PER_WINDOW,
    default: 120,
    description:
      'Requests per window with one publishable key from one client address; 0 turns it off',
  }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_TIMEOUT_MS: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 50,
    description:
      'A Redis command not answered by then fails, and the request counts in this instance instead',
  }),
  REDIS_RETRY_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 5000,
    description:
      'After a Redis failure, how long limits count only in this instance before Redis is tried again',
  }),
  SIGNUPS_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 20,
    description:
      'Sign-ups (POST /api/users) per client address per hour, whatever credential they carry; 0 turns it off',
  }),
  AUTH_FAILURES_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 20,
    description: 'Failed authentications per client address per window; 0 turns throttling off',
  }),
  AUTH_FAILURES_PER_ACCOUNT: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 100,
    description: 'Failed Basic sign-ins per account per hour, from addresses never used by it',
  }),
  AUTH_FAILURE_WINDOW_MS: Type.Integer({ minimum: 1000, maximum: 86_400_000, default: 900_000 }),
  CONFIRMATIONS_TO_OTHERS_PER_HOUR: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    default: 10,
    description: 'Confirmations a customer account may cause to addresses not its own per hour',
  }),
  SELLER_CONFIRMATIONS_PER_DAY: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 500,
    description:
      "Confirmations a seller's own bookings (its account, its staff, its publishable keys) may send per day to addresses other than its accounts'",
  }),
  API_KEY_CACHE_TTL_MS: Type.Integer({
    minimum: 0,
    maximum: 3_600_000,
    default: 60_000,
    description:
      'How long a verified API key is kept in memory (invalidated on every change through LISTEN/NOTIFY); 0 turns the cache off',
  }),
  API_KEY_CACHE_STALE_MS: Type.Integer({
    minimum: 10,
    maximum: 10_000,
    default: 100,
    description:
      'PostgreSQL: a cached key is used only while its instance has heard every change up to this long ago, and a key rotation answers after this long; the same on every instance',
  }),
  PASSWORD_HASH_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: 'Password hashes computed at once (scrypt is CPU and memory)',
  }),
  BODY_LIMIT: Type.Integer({
    minimum: 1024,
    // 16 MiB: a JSON body is parsed whole in memory, and grows several-fold doing so, in a
    // heap the production start caps at 128 MB (package.json `start`).
    maximum: 16 * 1_048_576,
    default: 1_048_576,
    description: "The largest request body in bytes: the cap of every route's own limit",
  }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 30_000 }),
  SHUTDOWN_DRAIN_MS: Type.Integer({
    minimum: 0,
    maximum: 120_000,
    default: 0,
    description:
      'On SIGTERM, how long /readyz answers 503 (and answers close their connections) while requests are still served, before the server stops accepting: longer than the balancer needs to notice (docs/operations.md)',
  }),
  HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 10_000,
    description: 'A connection that has not sent complete request headers by then is closed',
  }),
  KEEP_ALIVE_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 5_000,
    description: 'An idle keep-alive connection is closed after this long',
  }),
  SOCKET_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 60_000,
    description: 'A connection with no traffic at all for this long is closed',
  }),
  SEND_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 600_000,
    default: 10_000,
    description:
      'A connection whose client has not taken any of a response for this long (it does not read) is closed',
  }),
  MAX_CONNECTIONS: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 4096,
    description:
      'Open connections per process; at the cap a new one closes the oldest that has sent no request (else one whose client does not read), and is refused only when every slot holds a real client',
  }),
});
type Env = Static<typeof EnvSchema>;

export type BookingEnv = Env['BOOKING_ENV'];
export type LogLevel = Env['LOG_LEVEL'];

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Proxies trusted to name the client (Fastify's `trustProxy`), none when empty. */
  readonly trustProxy: readonly string[];
  /** Unset: embedded PGlite in `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly databasePoolSize: number;
  /** Whether the server's connections carry SERVER_LIMITS (db/database.ts). */
  readonly databaseSessionLimits: boolean;
  readonly migrateOnStart: boolean;
  /** Serve /demo (the widget on a sample seller): by default, embedded in a sandbox or on loopback. */
  readonly demoPage: boolean;
  readonly env: BookingEnv;
  /** Unset (embedded database only): a secret file generated in `dataDir` (security/secret.ts). */
  readonly secret: string | undefined;
  /** During a rotation of BOOKING_SECRET: the one being replaced, still opened. */
  readonly previousSecret: string | undefined;
  readonly smtpUrl: string | undefined;
  readonly metricsToken: string | undefined;
  readonly mailFrom: string;
  readonly outbox: {
    readonly pollMs: number;
    readonly retryBaseMs: number;
    readonly giveUpAfterMs: number;
    readonly sendTimeoutMs: number;
  };
  readonly webhooks: {
    readonly dispatch: boolean;
    readonly pollMs: number;
    readonly timeoutMs: number;
    readonly retryScheduleMs: readonly number[];
    readonly concurrencyPerHost: number;
    readonly concurrencyPerOwner: number;
  };
  readonly holds: {
    readonly holdMs: number;
    readonly sweep: boolean;
    readonly sweepMs: number;
  };
  /** The retention sweep (src/retention.ts): how old settled work gets, and its loop. */
  readonly retention: {
    readonly ms: number;
    readonly sweep: boolean;
    readonly sweepMs: number;
  };
  /** The pollers' horizon's allowance for clock skew (db/poll-horizon.ts). */
  readonly pollHorizonMarginMs: number;
  readonly logLevel: LogLevel;
  readonly rateLimit: {
    readonly max: number;
    readonly windowMs: number;
    /** Publishable keys (checkout): per key, and per key and client address. */
    readonly checkoutPerKey: number;
    readonly checkoutPerAddress: number;
  };
  readonly redis: {
    /** Unset: every limit counts in this process. */
    readonly url: string | undefined;
    readonly timeoutMs: number;
    readonly retryMs: number;
  };
  /** Sign-ups per client address per hour (http/signup-limit.ts); 0: off. */
  readonly signupsPerAddress: number;
  readonly authThrottle: {
    readonly perAddress: number;
    readonly perAccount: number;
    readonly windowMs: number;
  };
  readonly apiKeyCacheTtlMs: number;
  readonly apiKeyCacheStaleMs: number;
  readonly passwordHashConcurrency: number;
  readonly confirmationsToOthersPerHour: number;
  /** A seller's daily budget of confirmations to others (docs/booking.md, "Not a relay"). */
  readonly sellerConfirmationsToOthersPerDay: number;
  readonly bodyLimit: number;
  readonly requestTimeoutMs: number;
  readonly shutdownDrainMs: number;
  readonly sockets: {
    readonly headersTimeoutMs: number;
    readonly keepAliveTimeoutMs: number;
    readonly idleTimeoutMs: number;
    readonly sendTimeoutMs: number;
    readonly maxConnections: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * TRUST_PROXY's addresses and ranges, each checked here: Fastify would refuse a bad one only
 * as it starts, without naming the variable.
 */
function trustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((entry) => entry.trim());
  const proxies = entries.filter((entry) => entry !== '');
  for (const entry of proxies) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0)
      throw new ConfigError(
        `Invalid configuration: TRUST_PROXY must list IP addresses or CIDR ranges (got "${entry}")`,
      );
  }
  return proxies;
}

/** The variables this service reads, for docs and for `cli config`. */
export const configVariables = Object.keys(EnvSchema.properties) as (keyof Env)[];

const properties = EnvSchema.properties as Record<string, { type?: unknown; enum?: string[] }>;
const integerVariables = configVariables.filter((name) => properties[name]?.type === 'integer');

/**
 * Integers written in digits only (a sign is left to the schema's minimum to name). TypeBox's
 * conversion would take "0.5" as 0 and "false" as 0, and 0 turns several limits off.
 */
function badIntegers(raw: Record<string, string>): string[] {
  return integerVariables.filter((name) => raw[name] !== undefined && !/^-?\d+$/.test(raw[name]));
}

/**
 * Rules across variables, or beyond what the schema says, as (variable, message) pairs.
 * With a PostgreSQL server, a process without BOOKING_SECRET would generate its own in its
 * DATA_DIR, and keys one instance (or a `cli` command) sealed would not open on another.
 */
function crossChecks(env: Env, set: ReadonlySet<string>): [string, string][] {
  const problems: [string, string][] = [];
  if (env.DATABASE_URL !== undefined && env.BOOKING_SECRET === undefined)
    problems.push([
      'BOOKING_SECRET',
      'BOOKING_SECRET must be set with DATABASE_URL: every instance and command sharing the database uses the same one',
    ]);
  // BOOKING_SECRET_PREVIOUS may be the placeholder: it is how a deployment rotates away from it.
  if (env.BOOKING_SECRET !== undefined && PLACEHOLDER_SECRET.test(env.BOOKING_SECRET))
    problems.push([
      'BOOKING_SECRET',
      'BOOKING_SECRET is the example placeholder (change-me…): set a random one, e.g. `openssl rand -base64 48`',
    ]);
  const schedule = env.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number);
  if (schedule.some((delay) => delay > MAX_TIMER_MS))
    problems.push([
      'WEBHOOK_RETRY_SCHEDULE_MS',
      `WEBHOOK_RETRY_SCHEDULE_MS must be <= ${MAX_TIMER_MS} in every delay`,
    ]);
  // Written, a headers timeout past the request's would be cut to it without a word (0: no
  // request timeout); unset, its default follows a shorter request timeout (headersTimeout).
  if (set.has('HEADERS_TIMEOUT_MS') && env.HEADERS_TIMEOUT_MS > requestTimeout(env))
    problems.push([
      'HEADERS_TIMEOUT_MS',
      `HEADERS_TIMEOUT_MS (${env.HEADERS_TIMEOUT_MS}) must be at most REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS}): the headers are part of the request`,
    ]);
  // Only the embedded server has an admin socket (and the data directory matters only there).
  return [...problems, ...addressProblems(env)];
}

/** A host name (`localhost`, `db.internal`, a compose service's `booking_app`), not a URL. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

/**
 * HOST and SMTP_URL as what they are used for: an interface to listen on (checked here, not
 * when the database has been made and `listen` fails on a `localhost:3000`), and a relay's
 * URL (found wrong at the first email otherwise).
 */
function addressProblems(env: Env): [string, string][] {
  const problems: [string, string][] = [];
  if (isIP(env.HOST) === 0 && !HOST_NAME.test(env.HOST))
    problems.push([
      'HOST',
      `HOST must be an IP address or a host name, without a port or scheme (got "${env.HOST}"); the port is PORT`,
    ]);
  if (env.SMTP_URL !== undefined && !isRelayUrl(env.SMTP_URL))
    problems.push([
      'SMTP_URL',
      'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…, with a port from 1 to 65535',
    ]);
  return problems;
}

/** Whether `value` parses as a URL with a host, and a port that can be dialled if it names one. */
function isRelayUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // An unparsable URL, a port that is not a number or is above 65535 among them.
    return false;
  }
  return url.hostname !== '' && url.port !== '0';
}

/** The admin socket's file in the data directory (admin/admin-socket.ts). */
const ADMIN_SOCKET = 'admin.sock';
/**
 * The longest path a Unix socket may have: sun_path less its closing NUL (108 bytes on
 * Linux, 104 elsewhere). libuv truncates a longer one without a word, so the socket would be
 * made outside the data directory, where another server's could be the same file.
 */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

function adminSocketProblem(dataDir: string): string | undefined {
  const socket = path.join(path.resolve(dataDir), ADMIN_SOCKET);
  const bytes = Buffer.byteLength(socket);
  if (bytes <= MAX_SOCKET_PATH_BYTES) return undefined;
  return (
    `DATA_DIR is too long for its admin socket: ${socket} is ${bytes} bytes, and a Unix socket's path ` +
    `may have at most ${MAX_SOCKET_PATH_BYTES}; use a shorter path (a symbolic link to the directory will do)`
  );
}

/**
 * Where the embedded server listens for the command line's commands, for the data
 * directory `dataDir`: the one rule for the server and the client alike. Throws a
 * ConfigError rather than name a path the system would truncate.
 */
export function adminSocketPath(dataDir: string): string {
  const problem = adminSocketProblem(dataDir);
  if (problem) throw new ConfigError(`Invalid configuration: ${problem}`);
  return path.join(path.resolve(dataDir), ADMIN_SOCKET);
}

/** The request timeout as a bound on the headers': none when it is 0 (no timeout). */
const requestTimeout = (env: Env) => env.REQUEST_TIMEOUT_MS || Infinity;

/** The headers timeout: as written, or its default if that is longer than the request's. */
const headersTimeout = (env: Env) => Math.min(env.HEADERS_TIMEOUT_MS, requestTimeout(env));

/** A listening address only this machine reaches. */
const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Variables a release took away, and why: set, they stop the process rather than be
 * ignored, so an operator who relied on one learns its behaviour changed.
 */
const REMOVED: Record<string, string> = {
  OUTBOX_MAX_ATTEMPTS:
    'was removed on 2026-12-07: an email is retried until OUTBOX_GIVE_UP_AFTER_MS (72 h) has passed, then marked failed; set that instead and unset this',
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {};
  for (const name of configVariables) {
    const value = env[name];
    // An empty variable means "not set": shells and compose files produce those.
    if (value !== undefined && value.trim() !== '') raw[name] = value.trim();
  }
  const messages = new Map<string, string>();
  for (const [name, why] of Object.entries(REMOVED))
    if (env[name] !== undefined && env[name].trim() !== '') messages.set(name, `${name} ${why}`);
  for (const name of badIntegers(raw))
    messages.set(name, describe(name, 'must be integer', raw[name]));
  // Before conversion, which writes defaults (and converted values) into what it is given.
  const written = new Set(Object.keys(raw));
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw)) as Env;
  for (const error of Value.Errors(EnvSchema, converted)) {
    const name = error.instancePath.replace(/^\//, '');
    if (!messages.has(name)) messages.set(name, describe(name, error.message, raw[name]));
  }
  // Only on an otherwise valid configuration: these read values the schema has checked.
  if (messages.size === 0)
    for (const [name, message] of crossChecks(converted, written))
      if (!messages.has(name)) messages.set(name, message);
  if (messages.size > 0)
    throw new ConfigError(`Invalid configuration: ${[...messages.values()].join('; ')}`);
  return Object.freeze({
    port: converted.PORT,
    host: converted.HOST,
    trustProxy: trustedProxies(converted.TRUST_PROXY),
    databaseUrl: converted.DATABASE_URL,
    dataDir: path.resolve(converted.DATA_DIR),
    databasePoolSize: converted.DATABASE_POOL_SIZE,
    databaseSessionLimits: converted.DATABASE_SESSION_LIMITS,
    migrateOnStart: converted.MIGRATE_ON_START ?? converted.DATABASE_URL === undefined,
    // A newcomer's: the embedded database, in a sandbox or listening on loopback only (what
    // `npm start` does). Reachable from elsewhere in production it would be a seller nobody
    // set up, taking real orders (and mailing through the operator's relay) for anyone.
    demoPage:
      converted.DEMO_PAGE ??
      (converted.DATABASE_URL === undefined &&
        (converted.BOOKING_ENV === 'sandbox' || isLoopbackHost(converted.HOST))),
    env: converted.BOOKING_ENV,
    secret: converted.BOOKING_SECRET,
    previousSecret: converted.BOOKING_SECRET_PREVIOUS,
    smtpUrl: converted.SMTP_URL,
    metricsToken: converted.METRICS_TOKEN,
    mailFrom: converted.MAIL_FROM,
    outbox: Object.freeze({
      pollMs: converted.OUTBOX_POLL_MS,
      retryBaseMs: converted.OUTBOX_RETRY_BASE_MS,
      giveUpAfterMs: converted.OUTBOX_GIVE_UP_AFTER_MS,
      sendTimeoutMs: converted.OUTBOX_SEND_TIMEOUT_MS,
    }),
    webhooks: Object.freeze({
      dispatch: converted.WEBHOOK_DISPATCH,
      pollMs: converted.WEBHOOK_POLL_MS,
      timeoutMs: converted.WEBHOOK_TIMEOUT_MS,
      retryScheduleMs: Object.freeze(converted.WEBHOOK_RETRY_SCHEDULE_MS.split(',').map(Number)),
      concurrencyPerHost: converted.WEBHOOK_CONCURRENCY_PER_HOST,
      concurrencyPerOwner: converted.WEBHOOK_CONCURRENCY_PER_OWNER,
    }),
    holds: Object.freeze({
      holdMs: converted.ORDER_HOLD_MS,
      sweep: converted.ORDER_HOLD_SWEEP,
      sweepMs: converted.ORDER_HOLD_SWEEP_MS,
    }),
    retention: Object.freeze({
      ms: converted.RETENTION_DAYS * 86_400_000,
      sweep: converted.RETENTION_SWEEP,
      sweepMs: converted.RETENTION_SWEEP_MS,
    }),
    // The embedded database runs in this process, on its clock: there is no skew to allow.
    pollHorizonMarginMs: converted.DATABASE_URL ? converted.POLL_HORIZON_MARGIN_MS : 0,
    logLevel: converted.LOG_LEVEL,
    rateLimit: Object.freeze({
      max: converted.RATE_LIMIT_MAX,
      windowMs: converted.RATE_LIMIT_WINDOW_MS,
      checkoutPerKey: converted.CHECKOUT_RATE_PER_KEY,
      checkoutPerAddress: converted.CHECKOUT_RATE_PER_ADDRESS,
    }),
    redis: Object.freeze({
      url: converted.REDIS_URL,
      timeoutMs: converted.REDIS_TIMEOUT_MS,
      retryMs: converted.REDIS_RETRY_MS,
    }),
    signupsPerAddress: converted.SIGNUPS_PER_ADDRESS,
    authThrottle: Object.freeze({
      perAddress: converted.AUTH_FAILURES_PER_ADDRESS,
      perAccount: converted.AUTH_FAILURES_PER_ACCOUNT,
      windowMs: converted.AUTH_FAILURE_WINDOW_MS,
    }),
    apiKeyCacheTtlMs: converted.API_KEY_CACHE_TTL_MS,
    apiKeyCacheStaleMs: converted.API_KEY_CACHE_STALE_MS,
    passwordHashConcurrency: converted.PASSWORD_HASH_CONCURRENCY,
    confirmationsToOthersPerHour: converted.CONFIRMATIONS_TO_OTHERS_PER_HOUR,
    sellerConfirmationsToOthersPerDay: converted.SELLER_CONFIRMATIONS_PER_DAY,
    bodyLimit: converted.BODY_LIMIT,
    requestTimeoutMs: converted.REQUEST_TIMEOUT_MS,
    shutdownDrainMs: converted.SHUTDOWN_DRAIN_MS,
    sockets: Object.freeze({
      headersTimeoutMs: headersTimeout(converted),
      keepAliveTimeoutMs: converted.KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: converted.SOCKET_TIMEOUT_MS,
      sendTimeoutMs: converted.SEND_TIMEOUT_MS,
      maxConnections: converted.MAX_CONNECTIONS,
    }),
  });
}

function describe(name: string, message: string, value: string | undefined): string {
  const schema = properties[name];
  const allowed = schema?.enum ? ` (one of ${schema.enum.join(', ')})` : '';
  // Never echo secrets, tokens or URLs that may carry credentials: stderr goes to the journal.
  const hidden = /SECRET|TOKEN|PASSWORD|URL/.test(name);
  const shown = value === undefined || hidden ? '' : ` (got "${value}")`;
  return `${name} ${message}${allowed}${shown}`;
}

/**
 * Where the service's own files are (dist/: the widget's bundle, the database template):
 * the nearest folder up from this module (src/, dist/, or wherever a bundle of the server
 * was written) whose package.json is this service's; else the working directory.
 */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'booking-service') return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}
