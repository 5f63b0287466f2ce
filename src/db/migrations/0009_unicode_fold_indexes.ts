/**
 * Substring filters fold case with Unicode lowercasing (query/fold.ts): they compare
 * `lower(column collate "und-x-icu")`, so the trigram indexes that serve them are rebuilt on
 * that expression. (The old ones, on the byte-ordered columns, served ILIKE, which folds
 * ASCII only.) The ICU root collation ships with PostgreSQL builds that include ICU (every
 * mainstream package does) and with the embedded database.
 */
import { sql, type Kysely } from 'kysely';

const TRIGRAM_INDEXES = [
  ['orders_customer_name_trgm', 'orders', 'customer_name', 'gin_pending_list_limit = 256'],
  ['orders_customer_email_trgm', 'orders', 'customer_email', 'gin_pending_list_limit = 256'],
  ['experiences_name_trgm', 'experiences', 'name', 'fastupdate = off'],
  ['guides_name_trgm', 'guides', 'name', 'fastupdate = off'],
  ['guides_email_trgm', 'guides', 'email', 'fastupdate = off'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Currency had none (a btree served it); every text field gets one, as the others.
  await sql`create index experiences_currency_trgm on experiences using gin ((lower(currency collate "und-x-icu")) gin_trgm_ops) with (fastupdate = off)`.execute(
    db,
  );
  for (const [index, table, column, storage] of TRIGRAM_INDEXES) {
    await sql`drop index ${sql.id(index)}`.execute(db);
    await sql`create index ${sql.id(index)} on ${sql.table(table)} using gin ((lower(${sql.ref(column)} collate "und-x-icu")) gin_trgm_ops) with (${sql.raw(storage)})`.execute(
      db,
    );
  }
}
