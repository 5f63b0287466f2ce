/**
 * Idempotency keys belong to a scope: the account that sent them, or, for sign-up (which has
 * no account yet), the client address (`address:<ip>`). So the column is a scope, no longer
 * a reference to users.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys drop constraint idempotency_keys_user_id_fkey`.execute(db);
  await sql`alter table idempotency_keys rename column user_id to scope`.execute(db);
}
