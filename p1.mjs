import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
let t = Date.now();
const lite = new PGlite({ extensions: { pg_trgm } });
await lite.waitReady;
console.log('fresh', Date.now() - t);
const cfg = createPgConfig(lite);
const pool = new pg.Pool({ ...cfg, max: 1 });
const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
t = Date.now();
await sql`create extension if not exists pg_trgm`.execute(db);
await sql`create table t (id text primary key, d date, n numeric, ts timestamptz default now())`.execute(db);
await sql`create index on t using gin (id gin_trgm_ops)`.execute(db);
await db.insertInto('t').values({ id: 'a', d: '2020-01-02', n: 1.5 }).execute();
console.log(await db.selectFrom('t').selectAll().execute(), Date.now() - t);
// concurrent transactions
await Promise.all([1,2,3].map(i => db.transaction().execute(async trx => {
  await trx.insertInto('t').values({ id: 'x'+i, d: '2020-01-02', n: i }).execute();
  await new Promise(r => setTimeout(r, 20));
  if (i === 2) throw new Error('boom');
}).catch(e => console.log('err', e.message))));
console.log((await db.selectFrom('t').select('id').execute()).map(r=>r.id));
// error recovery
try { await sql`select 1/0`.execute(db) } catch (e) { console.log('div', e.code) }
console.log((await sql`select 1 as x`.execute(db)).rows);
t = Date.now();
const dump = await lite.dumpDataDir('none');
console.log('dump', Date.now() - t, dump.size);
t = Date.now();
const lite2 = new PGlite({ loadDataDir: dump, extensions: { pg_trgm } });
await lite2.waitReady;
console.log('load', Date.now() - t, (await lite2.query('select count(*) from t')).rows);
