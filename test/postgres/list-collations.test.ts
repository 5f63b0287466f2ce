/**
 * Every text column a list sorts or filters on compares in byte order (`collate "C"`, the
 * rule of migration 0002), on a server whose default collation is linguistic as well: a
 * database made from template0 with an ICU `en-US` default, as production servers often are
 * (`initdb` in an `en_US.UTF-8` locale, or ICU), migrated, then each column named by a list
 * spec (src/modules/*\/*.list.ts) checked in pg_attribute. Left with the default,
 * `sort=name` of sellers came `_x, a, A, b, B, École, Zed` there and `A, B, Zed, _x, a, b,
 * École` on PGlite and in the reference evaluator. Fields computed in SQL (not a column) are
 * not columns to check; they are listed so a new one is seen.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { checkinList } from '../../src/modules/checkins/checkins.list.js';
import { publishableKeyList } from '../../src/modules/checkout/publishable-keys.list.js';
import { delegateList } from '../../src/modules/delegates/delegates.list.js';
import { eventList } from '../../src/modules/events/events.list.js';
import { demographicList } from '../../src/modules/experiences/demographics.list.js';
import { experienceList } from '../../src/modules/experiences/experiences.list.js';
import { guideList } from '../../src/modules/guides/guides.list.js';
import { deliveryList, hookList } from '../../src/modules/hooks/hooks.list.js';
import { orderList } from '../../src/modules/orders/orders.list.js';
import { affiliateList } from '../../src/modules/resellers/resellers.list.js';
import { resourceList } from '../../src/modules/resources/resources.list.js';
import { sellerList } from '../../src/modules/users/sellers.list.js';
import type { ResourceSpec } from '../../src/query/types.js';
import { databaseUrl, onPostgres } from '../helpers/database.js';

const SPECS: ResourceSpec[] = [
  checkinList,
  publishableKeyList,
  delegateList,
  eventList,
  demographicList,
  experienceList,
  guideList,
  hookList,
  deliveryList,
  orderList,
  affiliateList,
  resourceList,
  sellerList,
];

/** Every (table or view, column) a list spec names, as `list field -> table.column`. */
function namedColumns(): { field: string; table: string; column: string }[] {
  return SPECS.flatMap((spec) =>
    spec.fields.flatMap((field) => {
      const table = field.item && spec.items ? spec.items.table : spec.table;
      const column = field.item ? (field.itemSql ?? field.sql) : field.sql;
      return typeof column === 'string'
        ? [{ field: `${spec.resource}.${field.name}`, table, column }]
        : [];
    }),
  );
}

const name = `collation_icu_${process.pid}`;
let admin: pg.Client;
let database: Database;

describe.runIf(onPostgres)('list columns on a server with a linguistic default collation', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(
      `create database ${name} template template0 locale_provider icu icu_locale 'en-US' locale 'C.UTF-8'`,
    );
    database = await openDatabase({ kind: 'postgres', url: databaseUrl(name), poolSize: 2 });
    await migrateToLatest(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await admin?.query(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  it('has the linguistic default this test means (a name sorts _x after a there)', async () => {
    const { rows } = await admin.query<{ datlocprovider: string }>(
      `select datlocprovider from pg_database where datname = $1`,
      [name],
    );
    expect(rows[0]!.datlocprovider).toBe('i');
  });

  it('compares every text column a list sorts or filters on in byte order', async () => {
    const columns = namedColumns();
    expect(columns.length).toBeGreaterThan(50);
    const found = await database.db.executeQuery<{
      relation: string;
      column: string;
      collation: string | null;
    }>({
      sql: `select c.relname as relation, a.attname as column, coll.collname as collation
              from pg_attribute a
              join pg_class c on c.oid = a.attrelid
              join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
              left join pg_collation coll on coll.oid = a.attcollation
             where a.attnum > 0 and not a.attisdropped`,
      parameters: [],
      query: undefined as never,
      queryId: undefined as never,
    });
    const collationOf = new Map(
      found.rows.map((r) => [`${r.relation}.${r.column}`, r.collation ?? 'none']),
    );
    const missing = columns.filter((c) => !collationOf.has(`${c.table}.${c.column}`));
    expect(missing).toEqual([]);
    const linguistic = columns
      .filter((c) => !['C', 'POSIX', 'none'].includes(collationOf.get(`${c.table}.${c.column}`)!))
      .map(
        (c) =>
          `${c.field} -> ${c.table}.${c.column} (${collationOf.get(`${c.table}.${c.column}`)})`,
      );
    expect(linguistic).toEqual([]);
  });
});
