/**
 * The command line's commands, by name, and the two ways they run: in the `cli` process
 * (`localContext`: it opens the database itself) or in the embedded server that holds the
 * data directory (`serverCommands`, which server.ts hands to the admin socket: the server's
 * open database and configuration, the output streamed back). Errors become one line (and
 * the usage for a command line that cannot be run), and exit code 1, either way.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { AdminCommands, CommandRequest } from '../admin/admin-socket.js';
import { EMBEDDED_TEMPLATE, openAppDatabase } from '../app-database.js';
import { ConfigError, type Config } from '../config.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { hasEmbeddedDatabase, openDatabase, type Database } from '../db/database.js';
import { migrateAll } from '../migrate-all.js';
import { DomainError } from '../domain/errors.js';
import { idempotencyService } from '../modules/idempotency/index.js';
import { usersModule } from '../modules/users/index.js';
import { configuredCipher, configuredFingerprintKey } from '../security/secret.js';
import { LATEST_VERSION } from '../versions/index.js';
import {
  CommandRefusedError,
  NoDatabaseError,
  UsageError,
  type CommandContext,
  type OpenOptions,
} from './context.js';
import { printOutbox, retryOutbox } from './outbox.js';
import { pruneCommand } from './prune.js';
import { rotateSecret } from './rotate-secret.js';
import { SEED_USAGE, seedCommand } from './seed.js';

export const USAGE = `Usage: cli <command>
  serve                         start the HTTP server (same as npm start)
  migrate                       apply pending database migrations (makes an embedded database
                                where DATA_DIR holds none; no other command does)
  outbox                        list email not sent yet (pending or failed)
  outbox retry <id>... | --failed
                                send failed email again (from now, with a new retry window)
  prune                         delete now what the retention sweep deletes (settled email,
                                webhook deliveries, domain events past RETENTION_DAYS)
  rotate-secret                 re-encrypt API keys and webhook secrets under BOOKING_SECRET,
                                reading the old ones with BOOKING_SECRET_PREVIOUS
  users create --email E --name N [--password P] [--admin] [--seller]
                                create an account; prints its id, API key and password
  ${SEED_USAGE}
Beside a running embedded server, every command runs in it (DATA_DIR/admin.sock) but seed,
which refuses: stop the server first.`;

async function migrate(ctx: CommandContext): Promise<void> {
  const database = await ctx.open('cli migrate', { create: true });
  try {
    // A statement of a migration waiting for a lock gives way to the traffic and the migrate
    // tries again (db/migrate.ts): say so rather than wait in silence for minutes.
    const results = await migrateAll(database.db, {
      onRetry: (error, pauseMs) =>
        ctx.err(`migrations: ${error.message}; trying again in ${Math.round(pauseMs / 1000)} s`),
    });
    for (const r of results)
      ctx.out(`${r.status === 'Success' ? 'applied' : r.status} ${r.migrationName}`);
    if (results.length === 0) ctx.out('schema is up to date');
  } finally {
    await database.close();
  }
}

async function createUser(ctx: CommandContext, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean', default: false },
      seller: { type: 'boolean', default: false },
    },
  });
  if (!values.email || !values.name) throw new UsageError('users create needs --email and --name');
  const password = values.password ?? randomBytes(12).toString('base64url');
  const roles = ['ROLE_DEVELOPER'];
  if (values.seller) roles.push('ROLE_SELLER');
  if (values.admin) roles.push('ROLE_ADMIN');
  const database = await ctx.open('cli users create');
  try {
    const users = usersModule({
      db: database.db,
      idempotency: idempotencyService({
        db: database.db,
        fingerprintKey: configuredFingerprintKey(ctx.config),
      }),
      cipher: configuredCipher(ctx.config),
      latestVersion: LATEST_VERSION,
    }).service;
    const user = await users.create(
      { name: values.name, email: values.email, password, roles },
      { trusted: true },
    );
    const shown = { id: user.id, email: user.email, roles: user.roles, apiKey: user.apiKey };
    ctx.out(JSON.stringify({ ...shown, password, ...(ctx.via ? { via: ctx.via } : {}) }, null, 2));
  } finally {
    await database.close();
  }
}

/**
 * A command that takes no arguments refuses any: none of them has a dry run or a help flag,
 * so `migrate --dry-run` would otherwise migrate, and `rotate-secret --dry-run` re-encrypt.
 */
function noArguments(command: string, args: string[]): void {
  if (args.length > 0)
    throw new UsageError(
      `${command} takes no arguments (got ${args.join(' ')}); it has no dry run`,
    );
}

/** One line for an error: the usage after a command line that cannot be run. */
function describe(error: unknown): string {
  if (error instanceof UsageError) return `${error.message}\n\n${USAGE}`;
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof NoDatabaseError ||
    error instanceof CommandRefusedError
  )
    return error.message;
  if (error instanceof DomainError) return `${error.code}: ${error.detail}`;
  // Node's own argument errors (an unknown flag) are usage errors too.
  if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS'))
    return `${(error as Error).message}\n\n${USAGE}`;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Runs `command` with `ctx`; resolves with the exit code (errors reported on `ctx.err`). */
export async function runCommand(
  { command, args }: CommandRequest,
  ctx: CommandContext,
): Promise<number> {
  try {
    switch (command) {
      case 'migrate':
        noArguments(command, args);
        await migrate(ctx);
        return 0;
      case 'outbox':
        if (args[0] === 'retry') await retryOutbox(ctx, args.slice(1));
        else if (args.length === 0) await printOutbox(ctx);
        else throw new UsageError(`unknown outbox command ${args[0]}`);
        return 0;
      case 'prune':
        noArguments(command, args);
        await pruneCommand(ctx);
        return 0;
      case 'rotate-secret':
        noArguments(command, args);
        await rotateSecret(ctx);
        return 0;
      case 'seed':
        return await seedCommand(ctx, args);
      case 'users':
        if (args[0] === 'create') {
          await createUser(ctx, args.slice(1));
          return 0;
        }
        throw new UsageError(`unknown users command ${args[0] ?? ''}`);
      default:
        throw new UsageError(command ? `unknown command ${command}` : 'no command given');
    }
  } catch (error) {
    const line = describe(error);
    ctx.err(ctx.via ? `${ctx.via}: ${line}` : line);
    return 1;
  }
}

/**
 * The cli process's own context: it opens the configured database itself, refusing an
 * embedded data directory that holds no database unless the command makes one.
 */
export function localContext(config: Config): CommandContext {
  return {
    config,
    out: (text) => console.log(text),
    err: (text) => console.error(text),
    open: async (role: string, { create = false, migrate = false }: OpenOptions = {}) => {
      if (!config.databaseUrl) {
        if (!create && !hasEmbeddedDatabase(config.dataDir))
          throw new NoDatabaseError(path.resolve(config.dataDir));
        if (create)
          return openDatabase({
            kind: 'pglite',
            dataDir: config.dataDir,
            role,
            template: EMBEDDED_TEMPLATE,
            stage: (line) => console.error(line),
          });
      } else if (create) {
        return openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 1 });
      }
      return openAppDatabase(migrate ? { ...config, migrateOnStart: true } : config, role);
    },
  };
}

/** Lent to a command by the server: closing it is the server's business. */
const borrowed = (database: Database): Database => ({ ...database, close: async () => {} });

/** The commands as the embedded server runs them for the admin socket (server.ts). */
export const serverCommands: AdminCommands = (request, { database, config, out, err }) =>
  runCommand(request, {
    config,
    out,
    err,
    via: `server ${process.pid}`,
    open: async (_role, { migrate = false }: OpenOptions = {}) => {
      if (migrate) await migrateAll(database.db);
      return borrowed(database);
    },
  });
