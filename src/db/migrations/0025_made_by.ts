/**
 * `created_by` on hooks, reseller credentials and publishable keys: the user who made the
 * row (the owner itself, one of its seller-admin delegates, or an admin). A seller-admin's
 * hooks and credentials outlived its delegation, with nothing to tell them from the
 * seller's own (review F3); now what a delegate made ends when it loses the capability that
 * made it (docs/security.md, "What a delegate made").
 *
 * Rows made before this migration have null: who made them was not recorded, and guessing
 * would end what the seller made itself. Resellers' own hooks (octo/webhooks) have null too:
 * no user makes them, and they end with their credential. No user is ever deleted; should
 * one be, the rows it made stay and lose the name.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['hooks', 'reseller_credentials', 'publishable_keys']) {
    await sql`alter table ${sql.table(table)} add column created_by text collate "C"
      references users (id) on delete set null`.execute(db);
  }
}
