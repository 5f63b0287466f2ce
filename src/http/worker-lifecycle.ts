/**
 * The modules' background workers (http/module.ts, Worker) in the app's life, and the
 * bound on the HTTP close that lets them finish in time: started once the app is ready;
 * told at once to claim nothing more when a stop begins (server.ts calls `stopClaiming` as
 * soon as SIGTERM arrives, before the drain; the close does it too); then waited for
 * together, each within its own send timeout (shutdown-budget.ts), while the database is
 * still open. Stopped one after another, they kept claiming through the drain and the HTTP
 * close, and while the one before waited for its send: work they then had no time to
 * finish, sent twice after a restart.
 */
import type { FastifyInstance } from 'fastify';
import type { Worker } from './module.js';

/**
 * Registers `workers` on `app`, the HTTP close given `requestsGraceMs` (shutdown-budget.ts,
 * REQUESTS_GRACE_MS). Call it after the database's and the modules' onClose hooks: those
 * run last-registered first, so the workers' stop runs before them.
 */
export function registerWorkers(
  app: FastifyInstance,
  workers: readonly Worker[],
  requestsGraceMs: number,
): void {
  for (const worker of workers) app.addHook('onReady', async () => worker.start());
  const stopClaiming = () => workers.forEach((worker) => worker.stopClaiming());
  app.decorate('stopClaiming', stopClaiming);
  app.addHook('preClose', async () => stopClaiming());
  app.addHook('onClose', async () => {
    const stops = await Promise.allSettled(workers.map((worker) => worker.stop()));
    for (const stop of stops) {
      if (stop.status === 'rejected')
        app.log.error({ err: stop.reason }, 'a worker failed to stop');
    }
  });
  boundHttpClose(app, requestsGraceMs);
}

/**
 * The HTTP close waits for the requests in flight, but for `graceMs` at most, then
 * closes the connections still open: a client sending its body a byte at a time, which
 * REQUEST_TIMEOUT_MS (30 s) allows, held the whole stop past its budget (exit 1).
 */
function boundHttpClose(app: FastifyInstance, graceMs: number): void {
  app.addHook('preClose', async () => {
    const server = app.server;
    if (!server.listening) return;
    const timer = setTimeout(() => {
      app.log.warn(
        { graceMs },
        'requests still open after the grace of the close: closing their connections',
      );
      server.closeAllConnections();
    }, graceMs);
    timer.unref();
    server.once('close', () => clearTimeout(timer));
  });
}
