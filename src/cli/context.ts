/**
 * What a command of the command line runs with, wherever it runs: in the `cli` process,
 * which opens the database itself, or in the embedded server that holds the data directory
 * (admin/), which lends it its open database and its configuration and streams the output
 * back. So every command works beside a running server (but `seed`, which refuses there:
 * cli/seed.ts), and the same code runs either way.
 */
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';

export interface OpenOptions {
  /** Make an embedded database where there is none (`migrate`); otherwise that is refused. */
  create?: boolean;
  /** Bring the schema up to date whatever MIGRATE_ON_START says. */
  migrate?: boolean;
}

export interface CommandContext {
  /** The configuration: the server's when run by it. */
  config: Config;
  /**
   * The database, as `role` (named in the lock of an embedded data directory). Its `close`
   * is a no-op when it is the server's.
   */
  open(role: string, options?: OpenOptions): Promise<Database>;
  /** One line of output (stdout). */
  out: (text: string) => void;
  /** One line of diagnostics or progress (stderr). */
  err: (text: string) => void;
  /** Set when a server runs the command: `server <pid>`. */
  via?: string;
}

/** A command line that cannot be run as given; printed with the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A command that refuses to run as things are: its message is the whole story (one line). */
export class CommandRefusedError extends Error {
  override name = 'CommandRefusedError';
}

/** A command pointed at a data directory that holds no database. */
export class NoDatabaseError extends Error {
  override name = 'NoDatabaseError';
  constructor(readonly dataDir: string) {
    super(
      `No database in ${dataDir}: DATA_DIR names the embedded server's data directory ` +
        '(default ./data). Start the server there once (npm start), or make one with `cli migrate`.',
    );
  }
}

/** A progress stream (cli/seed/progress.ts) that writes lines to `err`. */
export function lineStream(err: (text: string) => void): NodeJS.WriteStream {
  return {
    isTTY: false,
    write: (text: string) => {
      for (const line of text.split('\n')) if (line !== '') err(line);
      return true;
    },
  } as unknown as NodeJS.WriteStream;
}
