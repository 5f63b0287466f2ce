/** Recognising database errors that mean something to the API (same codes on both backends). */

interface PgError {
  code?: string;
  constraint?: string;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as PgError;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

export function isCheckViolation(error: unknown, constraint?: string): boolean {
  const e = error as PgError;
  return e?.code === '23514' && (constraint === undefined || e.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const e = error as PgError;
  return e?.code === '23503' && (constraint === undefined || e.constraint === constraint);
}

/** Network-level failures: the database could not be reached or the connection died. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // idle_in_transaction_session_timeout ended the session (SERVER_LIMITS, db/database.ts).
  '25P03',
]);

const PROTOCOL_VIOLATION = '08P01';

const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Client was closed and is not queryable',
  'connect ECONNREFUSED',
];

/**
 * Whether an error means the database is unreachable or the connection was lost (so the
 * request should be retried later: 503), rather than a refusal or a bug. Covers pg's own
 * errors and the socket's, and SQLSTATE class 08 (connection exception) but its
 * protocol_violation: the server refusing a message it was sent (a statement past 65,535
 * parameters, say) is a bug to answer with a 500, not an outage to retry forever.
 */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECTION_CODES.has(code) || (code.startsWith('08') && code !== PROTOCOL_VIOLATION))
    return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return CONNECTION_MESSAGES.some((m) => message.includes(m));
}

/**
 * SQLSTATE class 22, data exception: a value the database cannot store or compare (out of a
 * column's range, malformed for its type, a character the encoding refuses). Request
 * validation refuses these before any SQL runs; this recognises one that got past it, so it
 * is answered as the client's mistake rather than a server error.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * query_canceled (57014): the server's statement_timeout ran out (SERVER_LIMITS in
 * db/database.ts), most likely waiting for a lock a stuck transaction holds, or an operator
 * cancelled the statement. Not the request's fault, and likely to pass later: a 503.
 */
export function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014';
}

/**
 * lock_not_available (55P03): a statement gave up waiting for a lock at `lock_timeout`. The
 * app sets none, but an operator may (on the role or the database, to keep requests from
 * queueing behind a migration or a long transaction), and a pooler may hand the app a
 * server connection some other client left one on. Another transaction holds the lock, not
 * the request's fault, and likely to pass: a 503, as statement_timeout's 57014 is.
 */
export function isLockNotAvailable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '55P03';
}

/**
 * SQLSTATE insufficient_resources (53000), disk_full (53100), out_of_memory (53200): the
 * database host (or, embedded, DATA_DIR's disk and this process) is short of room. Not the
 * request's fault, and it passes once space is freed: a 503 to retry, not a 500 that says
 * "bug". Too many connections (53300) is a connection error above.
 */
const RESOURCE_CODES = new Set(['53000', '53100', '53200']);

export function isResourceExhausted(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RESOURCE_CODES.has(code);
}
