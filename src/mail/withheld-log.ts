/**
 * The log line of confirmations a seller's daily budget withheld (docs/booking.md, "Not a
 * relay"), limited per seller: a spam run past its budget is withheld about 1,000 times a
 * minute, and one warning each drowned the log. The first withheld confirmation of a seller
 * is logged at once; after that at most one line per seller every WITHHELD_LOG_EVERY_MS,
 * carrying how many were withheld since its previous line. The metric
 * (`mail_confirmations_withheld_total`) still counts every one. In-process: each instance
 * logs for itself.
 */
import type { FastifyBaseLogger } from 'fastify';

/** At most one line per seller this often: a day over budget is some 144 lines, not 1.4 M. */
export const WITHHELD_LOG_EVERY_MS = 10 * 60_000;

/**
 * Sellers remembered at once. Anyone may sign up as a seller, so hostile sellers must not
 * grow the map without bound: past this, the seller whose line is oldest is forgotten (its
 * next withheld confirmation is logged at once, its untold count lost to the log only). Some
 * 10,000 small entries: about a megabyte.
 */
export const WITHHELD_LOG_SELLERS = 10_000;

export interface LogLimiterOptions {
  everyMs: number;
  maxKeys: number;
  /**
   * The clock, in milliseconds: a monotonic one (a wall clock stepped back muted a seller for
   * as long); tests pass their own.
   */
  now?: () => number;
}

export interface LogLimiter {
  /**
   * One more occurrence for `key`: the count to log now (those since the key's previous line,
   * this one included), or undefined when the line waits.
   */
  hit(key: string): number | undefined;
  /** Keys remembered (tests). */
  readonly size: number;
}

interface Entry {
  /** When the key's last line was logged. */
  at: number;
  /** Occurrences since, not logged yet. */
  untold: number;
}

/**
 * At most one line per key every `everyMs`, remembering at most `maxKeys` keys. The map is
 * kept in the order of the keys' last lines (a key logged again is moved to the end), so the
 * oldest is first: keys whose interval is over and that have nothing untold are swept from
 * the front as they come (a key forgotten then loses nothing: its next occurrence would be
 * logged at once anyway), and past `maxKeys` the front one is forgotten.
 */
export function logLimiter(options: LogLimiterOptions): LogLimiter {
  const { everyMs, maxKeys, now = () => performance.now() } = options;
  const entries = new Map<string, Entry>();

  const sweep = (at: number) => {
    for (const [key, entry] of entries) {
      if (entries.size > maxKeys) {
        entries.delete(key);
      } else if (at - entry.at >= everyMs && entry.untold === 0) {
        entries.delete(key);
      } else {
        return;
      }
    }
  };

  return {
    hit(key) {
      const at = now();
      const entry = entries.get(key);
      // `at < entry.at` (a clock a test sets back): wait for it rather than log every time.
      if (entry && at - entry.at < everyMs) {
        entry.untold++;
        return undefined;
      }
      const count = (entry?.untold ?? 0) + 1;
      entries.delete(key);
      entries.set(key, { at, untold: 0 });
      sweep(at);
      return count;
    },
    get size() {
      return entries.size;
    },
  };
}

/**
 * What the seller's budget tells of a withheld confirmation (orders' SellerBudget.withheld):
 * a warning naming the seller, an id and never an address, at most once per seller per
 * WITHHELD_LOG_EVERY_MS, with `withheld` the confirmations since the seller's previous line.
 */
export function withheldLog(
  log: Pick<FastifyBaseLogger, 'warn'>,
  options: Partial<LogLimiterOptions> = {},
): (sellerId: string) => void {
  const limiter = logLimiter({
    everyMs: WITHHELD_LOG_EVERY_MS,
    maxKeys: WITHHELD_LOG_SELLERS,
    ...options,
  });
  return (sellerId) => {
    const withheld = limiter.hit(sellerId);
    if (withheld !== undefined)
      log.warn(
        { sellerId, withheld },
        'confirmations not sent: the seller is over its daily budget of mail to others',
      );
  };
}
