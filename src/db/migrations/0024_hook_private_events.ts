/**
 * `hooks.hears_private`: whether a hook hears `user.update`, whose body is the user with its
 * private metadata (DESIGN.md section 6: `?private=true` is for the user itself or an admin).
 * A seller's seller-admin delegates may manage its hooks, and a `*` hook one of them made
 * heard the metadata the API refuses them, and went on hearing it after the delegation
 * ended. A hook hears private events when the owner itself or an admin made it.
 *
 * Hooks made before this migration keep hearing them (true): who made them was not
 * recorded, and turning them off would silently stop the owners' own integrations. New
 * hooks say it when they are made (false unless the maker may read the metadata).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table hooks add column hears_private boolean not null default true`.execute(db);
  await sql`alter table hooks alter column hears_private set default false`.execute(db);
}
