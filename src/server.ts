/**
 * Process entry: config -> database -> app -> listen, and a graceful shutdown on SIGTERM
 * or SIGINT: drain (readiness 503 for SHUTDOWN_DRAIN_MS while still serving, so a balancer
 * takes the instance out first), then stop accepting, finish in-flight requests and
 * deliveries and email sends, close the pool; within a budget the configuration implies
 * (shutdown-budget.ts), after which it exits 1. SIGHUP and SIGUSR2 are ignored (IGNORED_SIGNALS).
 */
import './node20-navigator.js';
import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { serverCommands } from './cli/commands.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { shutdownBudgetMs } from './shutdown-budget.js';

/**
 * Signals that stop nothing, logged and otherwise ignored. Log rotation sends SIGHUP by
 * habit, and tools send SIGUSR2; close-with-grace would stop on them with exit code 0,
 * which systemd's `Restart=on-failure` takes for a wanted stop: the instance stayed down.
 * Logs go to stdout, so there is nothing to reopen; a stop is SIGTERM (docs/operations.md).
 */
const IGNORED_SIGNALS = ['SIGHUP', 'SIGUSR2'] as const;

async function main(): Promise<void> {
  const config = loadConfig();
  // From the start: one arriving while the database opens would end the process otherwise.
  const logTo: { log?: FastifyBaseLogger } = {};
  for (const signal of IGNORED_SIGNALS) {
    process.on(signal, () => logTo.log?.warn({ signal }, `${signal} ignored: stop with SIGTERM`));
  }
  // With the embedded database, the command line's commands run here while this runs.
  const app = await buildApp(config, { adminCommands: serverCommands });
  logTo.log = app.log;
  const budgetMs = shutdownBudgetMs(config);
  const grace = {
    delay: budgetMs,
    skip: [...IGNORED_SIGNALS],
    logger: app.log,
    // Then close-with-grace exits 1 without waiting for the database: the embedded one's
    // lock goes with the process ('exit', db/data-dir-lock.ts), and the next start recovers
    // its files as after a crash.
    onTimeout: () =>
      app.log.error({ budgetMs }, `shutdown did not finish within ${budgetMs} ms: exiting 1`),
  };
  closeWithGrace(grace, async ({ signal, err }) => {
    if (err) {
      app.log.error({ err }, 'shutting down after an error');
    } else {
      app.log.info({ signal, drainMs: config.shutdownDrainMs, budgetMs }, 'draining');
      app.readiness.draining = true;
      await sleep(config.shutdownDrainMs);
      app.log.info({ signal }, 'shutting down');
    }
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  // Configuration mistakes and a data directory in use get one clear line, not a stack trace.
  const clear = error instanceof ConfigError || error instanceof DataDirLockedError;
  console.error(clear ? error.message : error);
  process.exit(1);
});
