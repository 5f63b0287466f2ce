/**
 * The migrations, then the data steps that need the modules' own code, which a migration
 * may not import (db/ sits below modules/): each is safe to run again, and runs whenever a
 * migration was applied. Every path that migrates a database goes through here (the
 * `migrate` command, an embedded server migrating on start).
 */
import type { MigrationResult } from 'kysely';
import type { Db } from './db/database.js';
import { migrateToLatest, type MigrateOptions } from './db/migrate.js';
import { fillLocalTimes } from './modules/events/index.js';

export async function migrateAll(db: Db, options: MigrateOptions = {}): Promise<MigrationResult[]> {
  const applied = await migrateToLatest(db, options);
  // Migration 0023's events, and any an older release wrote since (docs/decisions/event-local-times.md).
  if (applied.length > 0) await fillLocalTimes(db);
  return applied;
}
