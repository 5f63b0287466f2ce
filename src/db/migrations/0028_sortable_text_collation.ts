/**
 * The rule of 0002 ("sortable and filterable text is `collate "C"`: byte order, the same on
 * every server") for the text lists sort by that was left with the database's default
 * collation: a user's `name` (`sort=name` of sellers), a reseller credential's `name`
 * (of affiliates), a hook's `url`, and the guest types' `id`, `label` and `code` in the
 * `demographics` view. On a server whose default collation is linguistic (`en_US.UTF-8`, ICU), those lists
 * came in another order than on PGlite, a `C` server and the reference evaluator.
 *
 * Only `hooks_owner_event_url` (unique, by equality, which both collations answer alike)
 * reads one of these columns; it is rebuilt with it. The view is made again (a view's
 * column cannot change collation in place); nothing depends on it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users alter column name type text collate "C"`.execute(db);
  await sql`alter table reseller_credentials alter column name type text collate "C"`.execute(db);
  await sql`alter table hooks alter column url type text collate "C"`.execute(db);
  await sql`drop view demographics`.execute(db);
  await sql`
    create view demographics as
    select (d.value ->> 'id') collate "C" as id, e.seller_id, e.id as experience_id,
           (d.value ->> 'label') collate "C" as label, (d.value ->> 'code') collate "C" as code,
           coalesce((d.value ->> 'price')::numeric(15, 3), e.price) as price,
           d.position::integer as position, e.visible, e.currency
      from experiences e
     cross join lateral jsonb_array_elements(e.demographics) with ordinality as d(value, position)`.execute(
    db,
  );
}
