/**
 * The application's database as the configuration says: PGlite in the data directory, or a
 * PostgreSQL pool; migrated at start (embedded, or MIGRATE_ON_START) or checked to be up to
 * date (a server, where `npm run migrate` is a deploy step). A new embedded data directory
 * starts as a copy of the migrated template `npm run build` leaves in dist/template/
 * (scripts/template.ts), so only migrations newer than the template run.
 *
 * The server's pool bounds its statements and idle transactions (SERVER_LIMITS in
 * db/database.ts), and how long it waits for an answer (ANSWER_TIMEOUT_MS); the command
 * line's does not: seeding a large database, say, runs statements of minutes.
 */
import path from 'node:path';
import { projectRoot, type Config } from './config.js';
import { ANSWER_TIMEOUT_MS, openDatabase, SERVER_LIMITS, type Database } from './db/database.js';
import { pendingMigrations } from './db/migrate.js';
import { migrateAll } from './migrate-all.js';

/** The migrated data directory a new embedded database is copied from. */
export const EMBEDDED_TEMPLATE = path.join(projectRoot(), 'dist', 'template');

/**
 * Opens the configured database and brings its schema up to date (or checks it is). An
 * embedded one is locked for this process as `role` (db/data-dir-lock.ts). `stage` hears a
 * line per stage (making a new embedded database, migrations applied).
 */
export async function openAppDatabase(
  config: Config,
  role = 'server',
  stage: (message: string) => void = () => undefined,
): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          poolSize: config.databasePoolSize,
          // The server opens as 'server' (app.ts); the command line names its command.
          ...(role === 'server' && config.databaseSessionLimits ? { limits: SERVER_LIMITS } : {}),
        }
      : {
          kind: 'pglite',
          dataDir: config.dataDir,
          role,
          // The template is migrations run ahead: not when the schema is to be left alone.
          ...(config.migrateOnStart ? { template: EMBEDDED_TEMPLATE } : {}),
          stage,
        },
  );
  try {
    if (config.migrateOnStart) {
      const applied = await migrateAll(database.db, {
        onRetry: (error, pauseMs) =>
          stage(`migrations: ${error.message}; trying again in ${pauseMs / 1000} s`),
      });
      if (applied.length > 0)
        stage(`migrations applied: ${applied.map((m) => m.migrationName).join(', ')}`);
    } else {
      const pending = await pendingMigrations(database.db);
      if (pending.length > 0) {
        throw new Error(
          `The database schema is out of date (pending: ${pending.join(', ')}); run \`npm run migrate\`.`,
        );
      }
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  // After the migrations, which lift the server's statement bound for their own session.
  if (role === 'server') database.boundAnswers(ANSWER_TIMEOUT_MS);
  return database;
}
