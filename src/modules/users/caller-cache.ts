/**
 * Verified API keys, in memory: digest -> the caller (roles and delegations), so a request
 * needs no authentication query. Correct across instances because it is used only while
 * it hears every change:
 *
 * - whatever changes who a key stands for (a key rotated, a delegation added, accepted,
 *   changed or removed) sends `pg_notify(CALLERS_CHANNEL, userId)` in its transaction
 *   (`announceCallerChange`); every instance LISTENs and drops that user's entries;
 * - while the listening connection is down, the cache is bypassed (every request reads the
 *   database) and emptied: a notification missed then can never keep a revoked key alive;
 * - a read that started before an invalidation is not cached (a generation counter): it may
 *   have seen the state from before the change.
 *
 * Entries also expire after `ttlMs` (`API_KEY_CACHE_TTL_MS`; 0 keeps nothing), and at most
 * `maxEntries` are kept (oldest dropped).
 */
import type { Database } from '../../db/database.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller } from '../../domain/caller.js';
import { usersRepository } from './users.repository.js';

export const CALLERS_CHANNEL = 'booking_callers';

export interface CallerCache {
  get(digest: Buffer): Caller | undefined;
  /** Take before reading the database; pass to `put` with what was read. */
  generation(): number;
  put(digest: Buffer, caller: Caller, generation: number): void;
  /** Drops a user's entries now (its own instance; others hear the notification). */
  invalidate(userId: string): void;
  readonly listening: boolean;
  close(): Promise<void>;
}

/** Tells every instance that who `userId`'s key stands for changed; delivered at commit. */
export const announceCallerChange = (tx: Tx, userId: string): Promise<void> =>
  usersRepository(tx).notify(CALLERS_CHANNEL, userId);

export async function createCallerCache(
  database: Pick<Database, 'listen'>,
  { ttlMs = 60_000, maxEntries = 10_000 } = {},
): Promise<CallerCache> {
  const entries = new Map<string, { caller: Caller; expires: number }>();
  let generation = 0;
  let listening = false;

  const forget = (userId: string) => {
    generation += 1;
    for (const [key, entry] of entries) if (entry.caller.id === userId) entries.delete(key);
  };
  const clear = () => {
    generation += 1;
    entries.clear();
  };

  const unlisten = await database.listen(CALLERS_CHANNEL, {
    onMessage: forget,
    onConnected: () => {
      clear();
      listening = true;
    },
    onDisconnected: () => {
      listening = false;
      clear();
    },
  });

  return {
    get(digest) {
      if (!listening) return undefined;
      const key = digest.toString('base64');
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires < Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.caller;
    },
    generation: () => generation,
    put(digest, caller, readAt) {
      if (!listening || readAt !== generation || ttlMs === 0) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(digest.toString('base64'), { caller, expires: Date.now() + ttlMs });
    },
    invalidate: forget,
    get listening() {
      return listening;
    },
    close: async () => {
      await unlisten();
      clear();
    },
  };
}
