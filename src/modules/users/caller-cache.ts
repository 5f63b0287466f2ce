/**
 * Verified API keys, in memory: digest -> the caller (roles and delegations), so a request
 * needs no authentication query. Correct across instances because it is used only while
 * it hears every change, and only as far as it has provably heard:
 *
 * - whatever changes who a key stands for (a key rotated, a delegation added, accepted,
 *   changed or removed) sends `pg_notify(CALLERS_CHANNEL, userId)` in its transaction
 *   (`announceCallerChange`); every instance LISTENs and drops that user's entries;
 * - while the listening connection is down, the cache is bypassed (every request reads the
 *   database) and emptied: a notification missed then can never keep a revoked key alive;
 * - a read that started before an invalidation is not cached (a generation counter): it may
 *   have seen the state from before the change;
 * - bounded staleness (PostgreSQL, where other instances may exist): an entry is served
 *   only while the instance has heard everything committed up to `staleMs` ago. It knows
 *   so from a fence: it sends a notification of its own (a barrier) and, when the barrier
 *   comes back on the listening connection, everything committed before it was sent has
 *   come back before it (PostgreSQL delivers notifications in commit order). Under load a
 *   barrier goes out every `staleMs / 2`; a request that finds the fence older than
 *   `staleMs` waits for the next one (one round trip). A change is therefore effective on
 *   every instance `staleMs` after it commits, and `propagated()` waits that long, so a
 *   rotation answers only once no instance can accept the old key (docs/security.md).
 *
 * Entries also expire after `ttlMs` (`API_KEY_CACHE_TTL_MS`; 0 keeps nothing), and at most
 * `maxEntries` are kept (oldest dropped).
 *
 * Other credentials that must stop working at once everywhere (resellers' Bearer
 * credentials, modules/resellers) keep theirs in a `section` of the same cache: the same
 * channel, fence and bounds, their entries keyed apart and dropped when any id they name
 * (the credential's, its seller's) is announced.
 */
import { randomBytes } from 'node:crypto';
import type { Database, Listening } from '../../db/database.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller } from '../../domain/caller.js';
import { usersRepository } from './users.repository.js';

export const CALLERS_CHANNEL = 'booking_callers';

/** Verified credentials of one kind, by digest (base64 text: security/api-keys.ts). */
export interface CredentialCache<T> {
  /** The cached value, once the fence says nothing newer can have been missed. */
  get(digest: string): Promise<T | undefined>;
  /**
   * What `get` would give at once, without waiting for a barrier: undefined where it would
   * wait (the caller then asks `get`). Most requests end here, with no promise.
   */
  peek(digest: string): T | undefined;
  /** Take before reading the database; pass to `put` with what was read. */
  generation(): number;
  put(digest: string, value: T, generation: number): void;
}

export interface CallerCache extends CredentialCache<Caller> {
  /**
   * Another kind of credential on the same channel and fence: its entries keyed apart from
   * API keys, each dropped when one of the ids `ownersOf` gives it is announced.
   */
  section<T>(kind: string, ownersOf: (value: T) => readonly string[]): CredentialCache<T>;
  /** Drops a user's entries now (its own instance; others hear the notification). */
  invalidate(userId: string): void;
  /**
   * Resolves once no instance's cache can serve an entry from before a change committed
   * just before the call: `staleMs` on PostgreSQL, at once on the embedded database (one
   * process).
   */
  propagated(): Promise<void>;
  readonly listening: boolean;
  close(): Promise<void>;
}

/** Tells every instance that who `userId`'s key stands for changed; delivered at commit. */
export const announceCallerChange = (tx: Tx, userId: string): Promise<void> =>
  usersRepository(tx).notify(CALLERS_CHANNEL, userId);

/** Payloads of barriers: `fence:<instance>:<sequence>`; every other payload is a user id. */
const FENCE = 'fence:';
/** How long a request waits for a barrier before it reads the database instead. */
const BARRIER_WAIT_MS = 2000;

export async function createCallerCache(
  database: Pick<Database, 'listen' | 'kind'>,
  { ttlMs = 60_000, maxEntries = 10_000, staleMs = 100 } = {},
): Promise<CallerCache> {
  const entries = new Map<string, { value: unknown; owners: readonly string[]; expires: number }>();
  let generation = 0;
  let connected = false;
  // One process owns an embedded database: its own invalidations are all there is to hear.
  const fenced = database.kind === 'postgres';
  const link: { listening?: Listening } = {}; // set once listen resolves
  const fence = barriers((payload) => link.listening?.echo(payload), staleMs);

  const forget = (userId: string) => {
    generation += 1;
    for (const [key, entry] of entries) if (entry.owners.includes(userId)) entries.delete(key);
  };
  const clear = () => {
    generation += 1;
    entries.clear();
    fence.reset();
  };

  link.listening = await database.listen(CALLERS_CHANNEL, {
    onMessage: (payload) => (payload.startsWith(FENCE) ? fence.heard(payload) : forget(payload)),
    onConnected: () => {
      clear();
      connected = true;
    },
    onDisconnected: () => {
      connected = false;
      clear();
    },
  });

  const lookup = (key: string): unknown => {
    if (!connected) return undefined;
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expires < Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };

  /** One kind of credential: keys `<kind>:<digest>` (API keys: no prefix). */
  const section = <T>(kind: string, ownersOf: (value: T) => readonly string[]) => {
    const keyOf = (digest: string) => kind + digest;
    /** Whether `key` may be served without asking the fence (none, nothing, or away). */
    const unfenced = (key: string) => !fenced || !connected || !entries.has(key);
    return {
      async get(digest: string) {
        const key = keyOf(digest);
        if (unfenced(key)) return lookup(key) as T | undefined;
        return (await fence.fresh()) ? (lookup(key) as T | undefined) : undefined;
      },
      peek(digest: string) {
        const key = keyOf(digest);
        if (unfenced(key) || fence.freshNow()) return lookup(key) as T | undefined;
        return undefined;
      },
      generation: () => generation,
      put(digest: string, value: T, readAt: number) {
        if (!connected || readAt !== generation || ttlMs === 0) return;
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(keyOf(digest), { value, owners: ownersOf(value), expires: Date.now() + ttlMs });
      },
    } satisfies CredentialCache<T>;
  };

  return {
    ...section<Caller>('', (caller) => [caller.id]),
    section: <T>(kind: string, ownersOf: (value: T) => readonly string[]) =>
      section(`${kind}:`, ownersOf),
    invalidate: forget,
    propagated: () =>
      fenced ? new Promise((resolve) => setTimeout(resolve, staleMs)) : Promise.resolve(),
    get listening() {
      return connected;
    },
    close: async () => {
      await link.listening?.stop();
      clear();
    },
  };
}

/**
 * The fence: when this instance last sent a barrier that has come back (performance.now()
 * of its sending), and the barriers on their way. Barriers go out on the listening
 * connection itself (`echo`), so they take nothing from the pool.
 */
function barriers(echo: (payload: string) => Promise<void> | undefined, staleMs: number) {
  const instance = randomBytes(6).toString('hex');
  const mine = `${FENCE}${instance}:`;
  let heardUpTo = -Infinity;
  let lastSent = -Infinity;
  let sequence = 0;
  const pending = new Map<number, number>(); // sequence -> sent at
  let waiters: (() => void)[] = [];

  const wake = () => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };
  const send = () => {
    lastSent = performance.now();
    sequence += 1;
    pending.set(sequence, lastSent);
    if (pending.size > 100) pending.delete(pending.keys().next().value!);
    // Not listening or the database away: requests wait, then read the database.
    echo(`${mine}${sequence}`)?.catch(() => undefined);
  };
  const age = () => performance.now() - heardUpTo;
  /** Whether everything committed up to `staleMs` ago has been heard, as of now. */
  const freshNow = (): boolean => {
    // Ahead of time under load, so that requests rarely wait.
    if (age() > staleMs / 2 && performance.now() - lastSent > staleMs / 2) send();
    return age() <= staleMs;
  };

  return {
    heard(payload: string) {
      if (!payload.startsWith(mine)) return; // another instance's barrier
      const seq = Number(payload.slice(mine.length));
      const sentAt = pending.get(seq);
      if (sentAt === undefined) return; // sent before the connection was (re)made
      for (const earlier of pending.keys()) if (earlier <= seq) pending.delete(earlier);
      heardUpTo = Math.max(heardUpTo, sentAt);
      wake();
    },
    reset() {
      heardUpTo = -Infinity;
      lastSent = -Infinity;
      pending.clear();
      wake();
    },
    freshNow,
    /** Whether everything committed up to `staleMs` ago has been heard (waiting a barrier). */
    async fresh(): Promise<boolean> {
      if (freshNow()) return true;
      const waited = new Promise<void>((resolve) => waiters.push(resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, BARRIER_WAIT_MS)));
      await Promise.race([waited, late]);
      clearTimeout(timer);
      return age() <= staleMs;
    },
  };
}
