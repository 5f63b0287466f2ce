/**
 * Retry delays for the mail dispatcher: exponential from a base, capped, and jittered so
 * that messages which failed together (an SMTP outage) do not all retry in the same instant.
 */

export const DEFAULT_RETRY_CAP_MS = 60 * 60 * 1000;

/** Jitter spreads each delay over ±10 %: enough to de-synchronise, small enough to predict. */
const JITTER = 0.1;

/**
 * Delay before the next attempt, after `attempts` attempts have failed (1 = the first).
 * Never more than `capMs`. `random` is injectable for tests; it returns a number in [0, 1).
 */
export function retryDelay(
  attempts: number,
  baseMs: number,
  capMs: number = DEFAULT_RETRY_CAP_MS,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 52);
  const delay = Math.min(capMs, baseMs * 2 ** exponent);
  return Math.min(capMs, Math.round(delay * (1 - JITTER + 2 * JITTER * random())));
}

/**
 * How many attempts the retries of one message take to span `windowMs`: the first attempt
 * whose delays before it (unjittered) add up to at least the window. The dispatcher gives up
 * after this many, so an outage is waited out by time, whatever the base: with the defaults
 * (5 s doubling to 1 h, 72 h) about 80 attempts. Time spent queued with no relay configured
 * does not count, and `cli outbox retry` (attempts back to 0) gives a message a new window.
 */
export function attemptsToSpan(
  windowMs: number,
  baseMs: number,
  capMs: number = DEFAULT_RETRY_CAP_MS,
): number {
  let spanned = 0;
  let attempts = 1;
  while (spanned < windowMs) {
    spanned += Math.min(capMs, baseMs * 2 ** Math.min(attempts - 1, 52));
    attempts++;
  }
  return attempts;
}
