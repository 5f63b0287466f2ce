/**
 * Command line: `serve`, `migrate`, `outbox`, `rotate-secret`, `users create`, `seed`. Run as `node dist/cli.js <command>`
 * (or `npm run cli -- <command>`).
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { openAppDatabase } from './app.js';
import { printOutbox } from './cli/outbox.js';
import { rotateSecret } from './cli/rotate-secret.js';
import { SEED_USAGE, seedCommand } from './cli/seed.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createAccountThroughServer } from './admin/admin-client.js';
import { DataDirLockedError, lockHolder } from './db/data-dir-lock.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { DomainError } from './domain/errors.js';
import { idempotencyService } from './modules/idempotency/index.js';
import { usersModule } from './modules/users/index.js';
import { configuredCipher } from './security/secret.js';
import { LATEST_VERSION } from './versions/index.js';

const USAGE = `Usage: cli <command>
  serve                         start the HTTP server (same as npm start)
  migrate                       apply pending database migrations
  outbox                        list email not sent yet (pending or failed)
  rotate-secret                 re-encrypt API keys and webhook secrets under BOOKING_SECRET,
                                reading the old ones with BOOKING_SECRET_PREVIOUS
  users create --email E --name N [--password P] [--admin] [--seller]
                                create an account; prints its id, API key and password
  ${SEED_USAGE}`;

async function migrate(config: Config): Promise<void> {
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: 1 }
      : { kind: 'pglite', dataDir: config.dataDir, role: 'cli migrate' },
  );
  try {
    const results = await migrateToLatest(database.db);
    for (const r of results)
      console.log(`${r.status === 'Success' ? 'applied' : r.status} ${r.migrationName}`);
    if (results.length === 0) console.log('schema is up to date');
  } finally {
    await database.close();
  }
}

async function createUser(config: Config, args: string[]): Promise<void> {
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
  // An embedded server holds the data directory: ask it to create the account.
  const server = config.databaseUrl ? undefined : lockHolder(config.dataDir);
  if (server?.role === 'server') {
    const user = await createAccountThroughServer(config.dataDir, {
      name: values.name,
      email: values.email,
      password,
      roles,
    });
    console.log(JSON.stringify({ ...pick(user), password, via: `server ${server.pid}` }, null, 2));
    return;
  }
  const database = await openAppDatabase({ ...config, migrateOnStart: true }, 'cli users create');
  try {
    const users = usersModule({
      db: database.db,
      idempotency: idempotencyService({ db: database.db }),
      cipher: configuredCipher(config),
      latestVersion: LATEST_VERSION,
    }).service;
    const user = await users.create(
      { name: values.name, email: values.email, password, roles },
      { trusted: true },
    );
    console.log(JSON.stringify({ ...pick(user), password }, null, 2));
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

const pick = (user: { id: string; email: string; roles: string[]; apiKey?: string }) => ({
  id: user.id,
  email: user.email,
  roles: user.roles,
  apiKey: user.apiKey,
});

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'serve':
      await import('./server.js');
      return;
    case 'migrate':
      return migrate(config);
    case 'outbox':
      return printOutbox(config);
    case 'rotate-secret':
      return rotateSecret(config);
    case 'seed':
      return seedCommand(
        config,
        [sub, ...rest].filter((a): a is string => a !== undefined),
      );
    case 'users':
      if (sub === 'create') return createUser(config, rest);
      throw new UsageError(`unknown users command ${sub ?? ''}`);
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command given');
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
  else if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof DataDirLockedError) console.error(error.message);
  else if (error instanceof DomainError) console.error(`${error.code}: ${error.detail}`);
  else console.error(error);
  process.exitCode = 1;
});
