/**
 * Counts the statements the app sends to the database (every `query` on a pg client,
 * BEGIN and COMMIT included), by text, while `work` runs: how the tests hold a request's
 * round trips to what docs/performance.md promises.
 */
import pg from 'pg';

export async function countStatements(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: string })?.text;
    seen.push(String(text ?? ''));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    prototype.query = original;
  }
  return seen;
}
