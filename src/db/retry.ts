/**
 * Retries a transaction that PostgreSQL aborted to break a deadlock or a serialization
 * conflict, or because a prepared statement in it was outdated by a migration (renamed and
 * prepared afresh on the next attempt: db/prepared.ts). Lock ordering makes the first rare
 * and deploys the second; when one happens anyway the client should see its booking, not
 * a 500.
 */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * PostgreSQL refuses to run a prepared statement whose result columns changed under it (a
 * migration added a column to a table it reads with `*`): "cached plan must not change
 * result type".
 */
export const isOutdatedPlan = (error: unknown) =>
  (error as { code?: string }).code === '0A000' &&
  /cached plan must not change result type/.test((error as Error).message);

export async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || !((code && RETRYABLE.has(code)) || isOutdatedPlan(error)))
        throw error;
    }
  }
}
