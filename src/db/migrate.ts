/**
 * Migration runner: Kysely's Migrator over the static list in migrations/index.ts. Each
 * migration runs in its own transaction under Kysely's advisory lock, so several
 * instances starting at once migrate once.
 */
import { Migrator, type MigrationResult } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

function migrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
}

export async function migrateToLatest(db: Db): Promise<MigrationResult[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return results ?? [];
}

/** Names of migrations not yet applied; used to refuse starting on an outdated schema. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const list = await migrator(db).getMigrations();
  return list.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
