/**
 * Retries a transaction that PostgreSQL aborted to break a deadlock or a serialization
 * conflict. Lock ordering makes these rare; when one happens anyway the client should see
 * its booking, not a 500.
 */
const RETRYABLE = new Set(['40P01', '40001']);

export async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || !code || !RETRYABLE.has(code)) throw error;
    }
  }
}
