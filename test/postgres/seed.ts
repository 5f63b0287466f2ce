/**
 * A fast, set-based seeder for plan tests on PostgreSQL: sellers, customers, experiences,
 * events, orders and their items made with INSERT ... SELECT over generate_series, then
 * ANALYZE. The spread is meant to look like real data to the planner: a few large sellers
 * and many small ones, common and rare customer names, a handful of email domains, events
 * spread over two years in several time zones, one to three items per order.
 *
 * Every row is consistent with the rules the service keeps: an order's seller is the seller
 * of its items' events, `seller_id` is copied onto its items, its arrival is the earliest
 * item arrival and its amount the sum of its confirmed items.
 */
import { sql, type Kysely } from 'kysely';
import {
  ACTIVITIES,
  ADJECTIVES,
  CURRENCIES,
  DOMAINS,
  FIRST_NAMES,
  LAST_NAMES,
  PLACES,
  TIMEZONES,
} from '../../src/cli/seed/words.js';
import type { DB } from '../../src/db/types.js';

export interface SeedOptions {
  sellers: number;
  customers: number;
  experiences: number;
  eventsPerExperience: number;
  orders: number;
}

export const DEFAULT_SEED: SeedOptions = {
  sellers: 1000,
  customers: 20_000,
  experiences: 4000,
  eventsPerExperience: 5,
  orders: 100_000,
};

export interface SeedResult {
  counts: Record<'users' | 'experiences' | 'events' | 'orders' | 'order_items', number>;
  /** The seller with the most orders: the hardest case for a seller-scoped query. */
  biggestSeller: string;
  milliseconds: number;
}

function idSql(createdAt: string, tag: string, counter: string): string {
  return `lpad(to_hex(floor(extract(epoch from ${createdAt}))::bigint), 8, '0') || '${tag}' || lpad(to_hex(${counter}), 6, '0')`;
}

const TAG = {
  seller: '5e11e50000',
  customer: 'c057000000',
  guide: '9d1de00000',
  experience: 'e1e1000000',
  event: 'e2e2000000',
  order: '0d0d000000',
  item: '1a1a000000',
};

const USERS_EPOCH = `timestamptz '2022-01-01T00:00:00Z'`;
const sellerId = (n: string) => idSql(USERS_EPOCH, TAG.seller, n);
const customerId = (n: string) => idSql(USERS_EPOCH, TAG.customer, n);
const guideId = (n: string) => idSql(USERS_EPOCH, TAG.guide, n);

/** `(array)[1 + floor(random()^skew * n)]`: a random element, lower indexes more likely. */
const pick = (array: string, skew = 1) =>
  `(${array})[1 + floor(power(random(), ${skew}) * cardinality(${array}))::int]`;

/**
 * Seeds an empty, migrated database. Runs on one connection (the working tables are
 * temporary) and takes well under a minute for the default 100,000 orders.
 */
export async function seed(
  db: Kysely<DB>,
  options: SeedOptions = DEFAULT_SEED,
): Promise<SeedResult> {
  const started = performance.now();
  const { sellers, customers, experiences, eventsPerExperience: perExperience, orders } = options;
  const events = experiences * perExperience;
  const lit = (values: readonly string[]) =>
    `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
  const first = lit(FIRST_NAMES);
  const last = lit(LAST_NAMES);

  const result = await db.connection().execute(async (conn) => {
    const run = (text: string) => sql.raw(text).execute(conn);
    await run(`set work_mem = '256MB'`);
    await run(`set synchronous_commit = off`);
    await run(`select setseed(0.4242)`);

    // Users: sellers (the owners of everything) and customers (who booked some orders).
    await run(`
      insert into users (id, name, email, password_hash, roles, api_key_digest,
                         api_key_ciphertext, api_version, created_at, updated_at)
      select ${sellerId('n')}, 'Seller ' || n, 'seller.' || n || '@seed.example.com',
             'scrypt$1$1$1$AA==$AA==', '{ROLE_SELLER}', decode(md5('seller' || n), 'hex'),
             '\\x00'::bytea, date '2017-01-01', ${USERS_EPOCH}, ${USERS_EPOCH}
      from generate_series(0, ${sellers - 1}) n`);
    await run(`
      insert into users (id, name, email, password_hash, roles, api_key_digest,
                         api_key_ciphertext, api_version, created_at, updated_at)
      select ${customerId('n')}, 'Customer ' || n, 'customer.' || n || '@seed.example.com',
             'scrypt$1$1$1$AA==$AA==', '{ROLE_DEVELOPER}', decode(md5('customer' || n), 'hex'),
             '\\x00'::bytea, date '2017-01-01', ${USERS_EPOCH}, ${USERS_EPOCH}
      from generate_series(0, ${customers - 1}) n`);

    // Experiences: every seller has one, the rest go mostly to a few large sellers.
    await run(`
      create temp table s_experiences on commit preserve rows as
      select n, ${idSql('created_at', TAG.experience, 'n')} as id, created_at,
             ${sellerId(`case when n < ${sellers} then n else floor(power(random(), 2) * ${sellers})::int end`)} as seller_id,
             ${pick(lit(ADJECTIVES))} || ' ' || ${pick(lit(ACTIVITIES), 1.5)} || ' in ' || ${pick(lit(PLACES), 1.5)} as name,
             round((10 + power(random(), 2) * 490)::numeric, 2) as price,
             case when random() < 0.8 then 'person' else 'outing' end as price_type,
             ${pick(lit(CURRENCIES), 2.5)} as currency,
             ${pick('array[30, 60, 90, 120, 150, 180, 240, 300, 360, 480]', 1.5)} as duration,
             ${pick(lit(TIMEZONES))} as timezone,
             random() < 0.9 as visible,
             floor(random() * 700)::int as first_day,
             1 + floor(random() * 5)::int as step_days,
             8 + floor(random() * 10)::int as hour,
             (array[0, 0, 15, 30, 45])[1 + floor(random() * 5)::int] as minute
      from (select n, ${USERS_EPOCH} + interval '6 months' + n * interval '157 minutes' as created_at
            from generate_series(0, ${experiences - 1}) n) s`);
    await run(`
      insert into experiences (id, seller_id, name, description, price, price_type, currency,
                               duration, timezone, outing_max, schedules, visible,
                               created_at, updated_at)
      select id, seller_id, name, 'Seeded for plan tests.', price, price_type, currency,
             duration, timezone, 10, '[]'::jsonb, visible, created_at, created_at
      from s_experiences order by n`);

    // Events: a few per experience, days apart, at the experience's local start time.
    await run(`
      create temp table s_events on commit preserve rows as
      select x.n * ${perExperience} + k as n,
             ${idSql("x.created_at + k * interval '1 minute'", TAG.event, `x.n * ${perExperience} + k`)} as id,
             x.id as experience_id, x.seller_id, x.name, x.price, x.price_type, x.currency,
             x.timezone, x.duration, x.created_at + k * interval '1 minute' as created_at,
             (date '2024-01-01' + x.first_day + k * x.step_days)
               + make_time(x.hour, x.minute, 0) as local_start,
             x.hour * 100 + x.minute as arrival_time,
             case when random() < 0.1 then null else 8 + floor(random() * 40)::int end as max,
             random() as r_reserved, random() as r_guides, random() as r_manual,
             floor(random() * 3000)::int as guide_a, floor(random() * 3000)::int as guide_b
      from s_experiences x cross join generate_series(0, ${perExperience - 1}) k`);
    await run(`
      insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved,
                          guide_ids, manual, created_at, updated_at)
      select id, experience_id, seller_id, local_start at time zone timezone,
             (local_start at time zone timezone) + duration * interval '1 minute',
             max, coalesce(floor(r_reserved * (max + 1))::int, floor(r_reserved * 20)::int),
             case when r_guides < 0.6 then '{}'::text[]
                  when r_guides < 0.9 then array[${guideId('guide_a')}]
                  else array[${guideId('guide_a')}, ${guideId('guide_b')}] end,
             -- A few departures closed (0.4%) or opened (0.2%) by hand.
             case when r_manual < 0.004 then false when r_manual >= 0.998 then true end,
             created_at, created_at
      from s_events order by n`);

    // Orders over three years, newest last (ids grow with creation time, as in production).
    await run(`
      create temp table s_orders on commit preserve rows as
      select n, ${idSql('created_at', TAG.order, 'n')} as id, created_at,
             created_at + power(random(), 3) * interval '60 days' as updated_at,
             floor(random() * ${events})::int as first_event,
             1 + floor(random() * 3)::int as item_count,
             case when random() < 0.08 then 'canceled' else 'confirmed' end as status,
             case when random() < 0.4
                  then ${customerId(`floor(random() * ${customers})::int`)} end as customer_id,
             ${pick(first, 1.7)} as first_name,
             ${pick(last, 1.7)} as last_name,
             random() as r_email,
             floor(random() * 100)::int as email_number,
             ${pick(lit(DOMAINS), 3)} as domain
      from (select n, timestamptz '2023-01-01T00:00:00Z'
                      + (timestamptz '2026-01-01T00:00:00Z' - timestamptz '2023-01-01T00:00:00Z')
                        * (n::float8 / ${orders}) as created_at
            from generate_series(0, ${orders - 1}) n) s`);

    // Items: consecutive events of the experience the order started with.
    await run(`
      create temp table s_items on commit preserve rows as
      select o.n as order_n, j, ${idSql('o.created_at', TAG.item, 'o.n * 3 + j')} as id,
             o.id as order_id, e.seller_id, e.experience_id, e.id as event_id, e.name,
             e.local_start::date as arrival, e.arrival_time,
             e.local_start at time zone e.timezone as arrival_datetime, e.timezone,
             q.quantity, e.price,
             case when e.price_type = 'person' then e.price * q.quantity else e.price end as amount,
             case when o.status = 'canceled' or random() < 0.05 then 700 else 200 end as status,
             e.currency
      from s_orders o
      cross join lateral generate_series(0, o.item_count - 1) j
      join s_events e
        on e.n = (o.first_event / ${perExperience}) * ${perExperience}
                 + (o.first_event % ${perExperience} + j) % ${perExperience}
      cross join lateral (select 1 + floor(power(random(), 3) * 10)::int + 0 * j as quantity) q`);

    await run(`
      insert into orders (id, seller_id, customer_id, customer_name, customer_email, status,
                          arrival, amount, currency, short_code, created_at, updated_at)
      select o.id, a.seller_id, o.customer_id, o.first_name || ' ' || o.last_name,
             case when o.r_email < 0.05 then null
                  else lower(replace(replace(o.first_name || '.' || o.last_name, ' ', ''), '''', ''))
                       || case when o.r_email < 0.5 then o.email_number::text else '' end
                       || '@' || o.domain end,
             o.status, a.arrival, a.amount, a.currency, 'T' || upper(to_hex(o.n)),
             o.created_at, o.updated_at
      from s_orders o
      join (select order_n, min(seller_id) as seller_id, min(arrival) as arrival,
                   min(currency) as currency,
                   sum(case when status = 200 then amount else 0 end) as amount
            from s_items group by order_n) a on a.order_n = o.n
      order by o.n`);
    await run(`
      insert into order_items (id, order_id, seller_id, customer_id, experience_id, event_id,
                               name, arrival, arrival_time, arrival_datetime, timezone, quantity,
                               price, amount, status, ticket_code, position)
      select i.id, i.order_id, i.seller_id, o.customer_id, i.experience_id, i.event_id, i.name,
             i.arrival, i.arrival_time, i.arrival_datetime, i.timezone, i.quantity, i.price,
             i.amount, i.status, md5(i.id), i.j
      from s_items i join s_orders o on o.n = i.order_n order by i.order_n, i.j`);

    await run(`drop table s_items, s_orders, s_events, s_experiences`);
    await run(`analyze users, experiences, events, orders, order_items`);

    const { rows } = await sql<{ seller_id: string }>`
      select seller_id from orders group by seller_id order by count(*) desc, seller_id limit 1
    `.execute(conn);
    const counts = await sql<SeedResult['counts']>`
      select (select count(*) from users)::int as users,
             (select count(*) from experiences)::int as experiences,
             (select count(*) from events)::int as events,
             (select count(*) from orders)::int as orders,
             (select count(*) from order_items)::int as order_items
    `.execute(conn);
    return { biggestSeller: rows[0]!.seller_id, counts: counts.rows[0]! };
  });
  return { ...result, milliseconds: Math.round(performance.now() - started) };
}
