/**
 * The load generator, in its own process so that it never shares an event loop (or a
 * core's time slice decisions) with the server it measures. Receives one job over IPC,
 * runs autocannon with it, sends back the numbers, exits.
 */
import { inspect } from 'node:util';
import autocannon from 'autocannon';
import type { LoadJob, LoadResult } from './load.js';

function run(job: LoadJob): Promise<LoadResult> {
  let next = 0;
  const bodies = job.bodies;
  const requests = job.paths.map((path) => ({
    method: job.method,
    path,
    // Bodies are handed out in turn across all connections: each booking its own departure.
    ...(bodies
      ? {
          setupRequest: (request: object) => ({ ...request, body: bodies[next++ % bodies.length] }),
        }
      : {}),
  }));
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.durationSec,
        ...(job.amount ? { amount: job.amount } : {}),
        headers: job.headers,
        requests,
        timeout: 30,
      },
      (error, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(inspect(error)));
        const statuses: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
          statuses[code] = Number(count);
        resolve({
          requests: result.requests.total,
          durationSec: result.duration,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          socketErrors: result.errors,
          timeouts: result.timeouts,
          statuses,
        });
      },
    );
  });
}

process.once('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: Error) => process.send!({ error: error.message }, () => process.exit(1)),
  );
});
