/**
 * The OCTo availability calendar of one product over 365 days (DESIGN.md section 10: one or
 * two queries) on the bench's data set (1,000,000 orders by default): the experience with
 * the most events in the coming year, asked through the real application in this process
 * (`app.inject`, so no socket or load generator shares the measurement), by a reseller of
 * its seller (a credential issued through the API, sent as Bearer). Reports the statements one calendar sends (from a warm caller cache), the
 * EXPLAIN of its range query, and p50/p99 over the requests.
 *
 *   npx tsx bench/octo-calendar.ts [--orders N] [--requests N]
 *   (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/booking_bench_octo)
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { createApiKeyCipher } from '../src/security/api-keys.js';
import { countStatements } from '../test/helpers/statement-counter.js';
import { BENCH_SECRET, prepareDatabase, serviceEnv } from './database.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { orders: { type: 'string' }, requests: { type: 'string' } },
});
const orders = Number(values.orders ?? 1_000_000);
const requests = Number(values.requests ?? 300);
const url =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/booking_bench_octo';
const log = (line: string) => process.stderr.write(`[octo-calendar] ${line}\n`);

await prepareDatabase(url, { orders, sellers: 1000, seed: 1 }, log);
const database = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
const { db } = database;

const today = new Date().toISOString().slice(0, 10);
const yearOn = new Date(Date.now() + 364 * 86_400_000).toISOString().slice(0, 10);
// The busiest visible experience of the coming year, and its seller's key.
const busiest = await sql<{ id: string; seller_id: string; events: number }>`
  select x.id, x.seller_id, count(*)::int as events
    from events e join experiences x on x.id = e.experience_id
   where x.visible and e.starts_at >= now() and e.starts_at < now() + interval '365 days'
   group by x.id, x.seller_id order by events desc limit 1`.execute(db);
const product = busiest.rows[0];
if (!product) throw new Error('no experience with events in the coming year: re-seed');
const seller = await db
  .selectFrom('users')
  .select(['id', 'api_key_ciphertext'])
  .where('id', '=', product.seller_id)
  .executeTakeFirstOrThrow();
const sellerKey = createApiKeyCipher(BENCH_SECRET).decrypt(seller.api_key_ciphertext, seller.id);
const counts = await sql<{ orders: number; events: number }>`
  select (select count(*) from orders)::int as orders, (select count(*) from events)::int as events`.execute(
  db,
);
log(
  `${counts.rows[0]!.orders.toLocaleString('en-US')} orders, ${counts.rows[0]!.events.toLocaleString('en-US')} events; ` +
    `product ${product.id}: ${product.events} events in the coming year`,
);

const config = loadConfig({
  ...serviceEnv(url, 4),
  WEBHOOK_DISPATCH: 'false',
  ORDER_HOLD_SWEEP: 'false',
  MIGRATE_ON_START: 'false',
  AUTH_FAILURES_PER_ADDRESS: '0',
  SIGNUPS_PER_ADDRESS: '0',
});
const app = await buildApp(config, { database });
await app.ready();
// A reseller of that seller, as resellers call: its credential issued through the API.
const issued = await app.inject({
  method: 'POST',
  url: `/api/users/${seller.id}/affiliates`,
  headers: { 'x-api-key': sellerKey, 'content-type': 'application/json' },
  payload: JSON.stringify({ name: 'Bench reseller', commission: { amount: 10 } }),
});
if (issued.statusCode !== 201) throw new Error(`affiliate: ${issued.statusCode} ${issued.body}`);
const key = issued.json<{ apiKey: string }>().apiKey;
const calendar = () =>
  app.inject({
    method: 'POST',
    url: '/octo/availability/calendar',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({
      productId: product.id,
      optionId: 'DEFAULT',
      localDateStart: today,
      localDateEnd: yearOn,
    }),
  });

const first = await calendar();
if (first.statusCode !== 200) throw new Error(`calendar: ${first.statusCode} ${first.body}`);
const days = first.json<unknown[]>().length;
// The key cache listens a moment after start; from then on the caller costs no query.
await new Promise((resolve) => setTimeout(resolve, 1000));
await calendar();
const statements = await countStatements(() => calendar());

const [from, to] = [new Date(`${today}T00:00:00Z`), new Date(`${yearOn}T23:59:59Z`)];
const plan = await sql<{ 'QUERY PLAN': string }>`explain analyze
  select starts_at, max, reserved, manual from events
   where experience_id = ${product.id} and starts_at >= ${from} and starts_at < ${to}
   order by starts_at`.execute(db);

for (let i = 0; i < 20; i++) await calendar(); // warm-up
const times: number[] = [];
for (let i = 0; i < requests; i++) {
  const started = performance.now();
  const response = await calendar();
  times.push(performance.now() - started);
  if (response.statusCode !== 200) throw new Error(`calendar: ${response.statusCode}`);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;

await app.close();
await database.close();
const report = [
  `OCTo calendar, ${days} days of one product (${product.events} events in the year), ${requests} requests in sequence:`,
  `  p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`,
  `  statements per request: ${statements.length}`,
  ...statements.map((s) => `    ${s.replace(/\s+/g, ' ').slice(0, 140)}`),
  '  the range query:',
  ...plan.rows.map((r) => `    ${r['QUERY PLAN']}`),
];
process.stdout.write(`${report.join('\n')}\n`);
