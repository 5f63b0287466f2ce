/**
 * Process entry: config -> database -> app -> listen, and a graceful shutdown on SIGTERM
 * or SIGINT: drain (readiness 503 for SHUTDOWN_DRAIN_MS while still serving, so a balancer
 * takes the instance out first), then stop accepting, finish in-flight requests, close the
 * pool.
 */
import './node20-navigator.js';
import { setTimeout as sleep } from 'node:timers/promises';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { serverCommands } from './cli/commands.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // With the embedded database, the command line's commands run here while this runs.
  const app = await buildApp(config, { adminCommands: serverCommands });
  closeWithGrace({ delay: config.shutdownDrainMs + 10_000 }, async ({ signal, err }) => {
    if (err) {
      app.log.error({ err }, 'shutting down after an error');
    } else {
      app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'draining');
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
