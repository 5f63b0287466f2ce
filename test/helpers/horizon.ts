/**
 * Waiting for the pollers' horizon (db/poll-horizon.ts) to pass a stamp. Test files share a
 * worker (isolate: false) and so the process's creation clock (db/creation-clock.ts): a
 * burst of writes in an earlier file leaves it ahead of the wall clock, and the stamps this
 * file takes with it. A list read past an `updatedAt` shows only rows stamped below the
 * horizon, the database's clock, so such a row is listed once the wall clock passes its
 * stamp, as documented (a later stamp is seen later, never lost).
 */
import { setTimeout } from 'node:timers/promises';

/** Resolves once the wall clock is past every one of `stamps` (ISO 8601). */
export async function pastStamps(...stamps: string[]): Promise<void> {
  const latest = Math.max(...stamps.map((stamp) => Date.parse(stamp)));
  await setTimeout(Math.max(0, latest - Date.now() + 2));
}
