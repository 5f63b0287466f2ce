/**
 * Statements per request: each scenario's request made once more in this process, through
 * the real application (buildApp) on the bench database, counting what it sends to
 * PostgreSQL (BEGIN and COMMIT included; test/helpers/statement-counter.ts). Made after one
 * warm-up request, as under load: the caller's API key is then cached.
 */
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { countStatements } from '../test/helpers/statement-counter.js';

export interface CountedRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  apiKey: string;
  /** Bodies for the warm-up and the counted request (a booking's departures differ). */
  bodies?: [string, string];
}

export async function statementsPerRequest(
  env: Record<string, string>,
  requests: readonly CountedRequest[],
): Promise<Map<string, number>> {
  const config = loadConfig({
    ...env,
    WEBHOOK_DISPATCH: 'false',
    ORDER_HOLD_SWEEP: 'false',
    MIGRATE_ON_START: 'false',
  });
  const database = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL!, poolSize: 4 });
  const app = await buildApp(config, { database });
  await app.ready();
  const counts = new Map<string, number>();
  try {
    for (const request of requests) {
      const inject = (body?: string) =>
        app.inject({
          method: request.method,
          url: request.path,
          headers: {
            'x-api-key': request.apiKey,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { payload: body } : {}),
        });
      await inject(request.bodies?.[0]);
      // The key cache is bypassed until its LISTEN connection is up (a moment after start).
      if (counts.size === 0) await new Promise((resolve) => setTimeout(resolve, 1000));
      let status = 0;
      const statements = await countStatements(async () => {
        status = (await inject(request.bodies?.[1])).statusCode;
      });
      if (status >= 400) throw new Error(`${request.name}: ${status} while counting statements`);
      counts.set(request.name, statements.length);
    }
  } finally {
    await app.close();
    await database.close();
  }
  return counts;
}
