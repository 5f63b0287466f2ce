/**
 * Command line: `serve`, `migrate`, `outbox`, `rotate-secret`, `users create`, `seed`. Run as
 * `node dist/cli.js <command>` (or `npm run cli -- <command>`). With the embedded database,
 * a command run while the server holds the data directory runs in the server, through its
 * admin socket (admin/); otherwise here (cli/commands.ts). Either way the same code, the
 * same output, the same exit code (`seed` refuses to run in the server: cli/seed.ts).
 */
import './node20-navigator.js';
import { AdminSocketUnavailableError, runThroughServer } from './admin/admin-client.js';
import { localContext, runCommand, USAGE } from './cli/commands.js';
import { ConfigError, loadConfig } from './config.js';
import { lockHolder } from './db/data-dir-lock.js';

async function main(argv: string[]): Promise<number> {
  const [command = '', ...args] = argv;
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  if (command === 'serve') {
    await import('./server.js');
    return 0;
  }
  if (command === 'help' || command === '--help') {
    console.log(USAGE);
    return 0;
  }
  const server = config.databaseUrl ? undefined : lockHolder(config.dataDir);
  if (server?.role === 'server') {
    return runThroughServer(
      config.dataDir,
      { command, args },
      { out: (text) => console.log(text), err: (text) => console.error(text) },
    );
  }
  return runCommand({ command, args }, localContext(config));
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    const clear = error instanceof AdminSocketUnavailableError || error instanceof ConfigError;
    console.error(clear ? error.message : error);
    process.exitCode = 1;
  },
);
