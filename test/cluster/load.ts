/**
 * A steady load through the balancer for the drills: workers in a loop, each request a
 * booking (one seat on a departure with no seat limit), a read of the caller, or a public
 * list; every answer counted, every acknowledged booking (201) remembered.
 */
import pg from 'pg';
import { booking, call, type ClusterAccount, type Reply } from './http.js';

/** How many of these orders the database holds (an acknowledged one missing is lost). */
export async function storedOrders(databaseUrl: string, ids: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from orders where id = any($1)',
      [ids],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** A request's error with its cause (fetch's own message is only "fetch failed"). */
function withCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause
    ? `${String(error)}: ${cause.code ?? ''} ${cause.message ?? ''}`.trim()
    : String(error);
}

export interface LoadResult {
  requests: number;
  /** Status codes (and problem codes) by count; `network` for a request that got no answer. */
  tally: Record<string, number>;
  /** Orders the service acknowledged (201). */
  acknowledged: string[];
  /** Answers that were neither 2xx nor 4xx, and requests with no answer at all. */
  failures: { status: number | 'network'; body: unknown; retryAfter: string | null }[];
}

export interface Load {
  stop(): Promise<LoadResult>;
}

export function startLoad(
  lb: string,
  shop: { experienceId: string },
  customer: ClusterAccount,
  workers = 6,
): Load {
  let running = true;
  const result: LoadResult = { requests: 0, tally: {}, acknowledged: [], failures: [] };
  const count = (reply: Reply | undefined, error?: unknown) => {
    result.requests++;
    const key = reply
      ? reply.status >= 400 && reply.body?.code
        ? `${reply.status} ${reply.body.code}`
        : String(reply.status)
      : 'network';
    result.tally[key] = (result.tally[key] ?? 0) + 1;
    if (!reply || reply.status >= 500 || reply.status < 200) {
      result.failures.push({
        status: reply ? reply.status : 'network',
        body: reply ? reply.body : withCause(error),
        retryAfter: reply ? reply.headers.get('retry-after') : null,
      });
    }
  };
  const worker = async (n: number) => {
    for (let i = 0; running; i++) {
      const kind = (n + i) % 3;
      try {
        const reply =
          kind === 0
            ? await call(lb, 'POST', '/api/orders', {
                key: customer.apiKey,
                body: booking(shop.experienceId, `2030-0${1 + (i % 9)}-1${n % 10}`),
              })
            : kind === 1
              ? await call(lb, 'GET', '/api/users/me', { key: customer.apiKey })
              : await call(lb, 'GET', '/api/experiences?limit=5');
        count(reply);
        if (kind === 0 && reply.status === 201) result.acknowledged.push(reply.body.id);
      } catch (error) {
        count(undefined, error);
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, n) => worker(n)));
  return {
    async stop() {
      running = false;
      await done;
      return result;
    },
  };
}
