/**
 * Process entry: config -> database -> app -> listen, and a graceful shutdown on SIGTERM
 * or SIGINT: the workers stop claiming at once, then drain (readiness 503 for
 * SHUTDOWN_DRAIN_MS while still serving, so a balancer takes the instance out first), then
 * stop accepting, finish in-flight requests (for a grace, then their connections close),
 * deliveries and email sends, close the pool; within a budget the configuration implies
 * (shutdown-budget.ts), after which it exits 1. SIGHUP and SIGUSR2 are ignored
 * (IGNORED_SIGNALS).
 */
import './node20-navigator.js';
import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { serverCommands } from './cli/commands.js';
import { ConfigError, loadConfig, type Config } from './config.js';
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
    // First, before the drain: a worker claims nothing it may have no time to finish.
    app.stopClaiming();
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
  await listen(app, config);
}

/** The server could not listen where HOST and PORT say: one line naming both. */
class ListenError extends Error {
  override name = 'ListenError';
}

/** What the common reasons mean, for the operator reading the one line. */
const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'another process listens on that port already',
  EACCES: 'not permitted (a port below 1024 needs the privilege to bind it)',
  EADDRNOTAVAIL: 'no interface of this machine has that address',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
};

async function listen(app: Awaited<ReturnType<typeof buildApp>>, config: Config): Promise<void> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const why = LISTEN_FAILURES[code];
    throw new ListenError(
      `Cannot listen on HOST=${config.host} PORT=${config.port}: ${why ? `${why} (${code})` : (error as Error).message}`,
      { cause: error },
    );
  }
}

main().catch((error: unknown) => {
  // Configuration mistakes, a data directory in use and an address that cannot be listened
  // on get one clear line, not a stack trace.
  const clear =
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof ListenError;
  console.error(clear ? error.message : error);
  process.exit(1);
});
