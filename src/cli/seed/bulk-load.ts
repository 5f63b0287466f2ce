/**
 * Bulk loading: secondary indexes and foreign keys of the seeded tables are dropped before
 * the rows go in and made again afterwards, inside the seeding transaction (DDL is
 * transactional in PostgreSQL, so a failed run leaves the schema exactly as it was).
 * Building an index once over sorted data is several times cheaper than updating it row by
 * row (trigram GIN indexes above all), and one validating join per foreign key replaces a
 * lookup and a row lock per inserted row.
 *
 * Primary keys and unique constraints stay: other constraints depend on them, and they
 * catch a seeding bug at once. The definitions come from the catalog (pg_get_indexdef,
 * pg_get_constraintdef), so whatever the migrations made is restored as it was.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface Detached {
  indexes: { name: string; definition: string }[];
  foreignKeys: { table: string; name: string; definition: string }[];
}

export async function detach(trx: Db, tables: readonly string[]): Promise<Detached> {
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_class t on t.oid = i.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = current_schema() and t.relname in (${sql.join(tables)})
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by t.relname, c.relname`.execute(trx);
  const { rows: foreignKeys } = await sql<{ table: string; name: string; definition: string }>`
    select t.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k
    join pg_class t on t.oid = k.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where n.nspname = current_schema() and k.contype = 'f' and t.relname in (${sql.join(tables)})
    order by t.relname, k.conname`.execute(trx);
  for (const fk of foreignKeys)
    await sql`alter table ${sql.table(fk.table)} drop constraint ${sql.id(fk.name)}`.execute(trx);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(trx);
  return { indexes, foreignKeys };
}

/** Remakes what detach() dropped; `onIndex` is told after each index (they take longest). */
export async function reattach(
  trx: Db,
  detached: Detached,
  onIndex: (built: number) => void,
): Promise<void> {
  for (const [i, index] of detached.indexes.entries()) {
    await sql.raw(index.definition).execute(trx);
    onIndex(i + 1);
  }
  for (const fk of detached.foreignKeys) {
    await sql`alter table ${sql.table(fk.table)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(
      trx,
    );
  }
}
