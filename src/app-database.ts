/**
 * The application's database as the configuration says: PGlite in the data directory, or a
 * PostgreSQL pool; migrated at start (embedded, or MIGRATE_ON_START) or checked to be up to
 * date (a server, where `npm run migrate` is a deploy step).
 */
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest, pendingMigrations } from './db/migrate.js';

/**
 * Opens the configured database and brings its schema up to date (or checks it is). An
 * embedded one is locked for this process as `role` (db/data-dir-lock.ts).
 */
export async function openAppDatabase(config: Config, role = 'server'): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { kind: 'pglite', dataDir: config.dataDir, role },
  );
  try {
    if (config.migrateOnStart) {
      await migrateToLatest(database.db);
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
  return database;
}
