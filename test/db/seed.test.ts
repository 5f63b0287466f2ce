/**
 * `cli seed` (src/cli/seed/*) on a small data set: the counts asked for, rows consistent with
 * the rules the service keeps (an order's seller, copies on its items, amounts, reserved
 * seats), the same rows for the same seed, a non-empty database refused, and the data served
 * by the HTTP API with the seeded accounts' own keys. Runs on PGlite, and on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase, SeedRefusedError, type SeedSummary } from '../../src/cli/seed/generate.js';
import { resolveSeedOptions, type SeedOptions } from '../../src/cli/seed/options.js';
import { silentProgress } from '../../src/cli/seed/progress.js';
import type { Database, Db } from '../../src/db/database.js';
import { apiKeyDigest, createApiKeyCipher } from '../../src/security/api-keys.js';
import { hashPassword } from '../../src/security/passwords.js';
import { LATEST_VERSION } from '../../src/versions/index.js';
import { as, createAdmin, createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';

const OPTIONS: SeedOptions = resolveSeedOptions({
  sellers: 5,
  experiences: 10,
  events: 40,
  customers: 20,
  orders: 300,
  seed: 7,
  from: '2024-01-07',
  // Several batches (300 = 128 + 128 + 44): the determinism test seeds in one.
  batch: 128,
});

const PASSWORD = 'seeded password 1';
let settings: Parameters<typeof seedDatabase>[2];

let t: TestApp;
let db: Db;
let summary: SeedSummary;
let digestAfterSeed: Record<string, string>;
let schemaBeforeSeed: string[];

/** Rows that break a rule, as a query returns them (the assertion shows them on failure). */
async function rows<R = Record<string, unknown>>(query: RawBuilder<R>, on: Db = db): Promise<R[]> {
  return (await query.execute(on)).rows;
}

/** One md5 per seeded table over its content in id order (API keys aside: they are random). */
async function digest(on: Db): Promise<Record<string, string>> {
  const [row] = await rows<Record<string, string>>(
    sql`
      select
        (select md5(coalesce(string_agg(concat_ws('|', id, name, email, roles::text,
                  extract(epoch from created_at)), ',' order by id), ''))
         from users) as users,
        (select md5(coalesce(string_agg(concat_ws('|', id, seller_id, name, email, phone, bio,
                  schedules::text, extract(epoch from created_at)), ',' order by id), ''))
         from guides) as guides,
        (select md5(coalesce(string_agg(concat_ws('|', id, seller_id, name, description,
                  price, price_type, currency, duration, timezone, outing_max,
                  schedules::text, visible, extract(epoch from created_at)), ',' order by id), ''))
         from experiences) as experiences,
        (select md5(coalesce(string_agg(concat_ws('|', id, experience_id, seller_id,
                  extract(epoch from starts_at), extract(epoch from ends_at), max, reserved,
                  guide_ids::text, extract(epoch from created_at)), ',' order by id), ''))
         from events) as events,
        (select md5(coalesce(string_agg(concat_ws('|', id, seller_id, customer_id,
                  customer_name, customer_email, status, arrival, amount, currency,
                  extract(epoch from created_at), extract(epoch from updated_at)),
                  ',' order by id), ''))
         from orders) as orders,
        (select md5(coalesce(string_agg(concat_ws('|', id, order_id, seller_id, customer_id,
                  experience_id, event_id, name, arrival, arrival_time,
                  extract(epoch from arrival_datetime), timezone, quantity, price, amount,
                  status), ',' order by id), ''))
         from order_items) as order_items`,
    on,
  );
  return row!;
}

/** Indexes and constraints of the seeded tables, as the catalog defines them. */
async function schemaOf(on: Db): Promise<string[]> {
  const found = await rows<{ d: string }>(
    sql`
      select tablename || ': ' || indexdef as d from pg_indexes
      where schemaname = current_schema()
      union all
      select t.relname || ': ' || k.conname || ' ' || pg_get_constraintdef(k.oid)
      from pg_constraint k
      join pg_class t on t.oid = k.conrelid
      join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema()
      order by 1`,
    on,
  );
  return found.map((r) => r.d);
}

beforeAll(async () => {
  settings = {
    cipher: createApiKeyCipher(TEST_SECRET),
    passwordHash: await hashPassword(PASSWORD),
    apiVersion: LATEST_VERSION,
    progress: silentProgress,
  };
  // The sandbox, so the seeded password can be tried with HTTP Basic.
  t = await createTestApp({ LOG_LEVEL: 'silent', BOOKING_ENV: 'sandbox' });
  db = t.database.db;
  schemaBeforeSeed = await schemaOf(db);
  summary = await seedDatabase(db, OPTIONS, settings);
  digestAfterSeed = await digest(db);
});
afterAll(async () => t?.close());

describe('cli seed: the rows', () => {
  it('makes what the options ask for, and reports it', async () => {
    const [counts] = await rows<SeedSummary['counts'] & { sellers: number; customers: number }>(
      sql`
        select (select count(*) from users)::int as users,
               (select count(*) from users where roles = array['ROLE_SELLER'])::int as sellers,
               (select count(*) from users where roles = array['ROLE_DEVELOPER'])::int
                 as customers,
               (select count(*) from guides)::int as guides,
               (select count(*) from experiences)::int as experiences,
               (select count(*) from events)::int as events,
               (select count(*) from orders)::int as orders,
               (select count(*) from order_items)::int as order_items`,
    );
    const { sellers, customers, ...tables } = counts!;
    expect(sellers).toBe(OPTIONS.sellers);
    expect(customers).toBe(OPTIONS.customers);
    expect(tables.users).toBe(OPTIONS.sellers + OPTIONS.customers);
    expect(tables.experiences).toBe(OPTIONS.experiences);
    expect(tables.orders).toBe(OPTIONS.orders);
    // One to five guides per seller.
    expect(tables.guides).toBeGreaterThanOrEqual(OPTIONS.sellers);
    expect(tables.guides).toBeLessThanOrEqual(OPTIONS.sellers * 5);
    // Events are shared out by weight and rounded per experience: about the number asked.
    expect(Math.abs(tables.events - OPTIONS.events)).toBeLessThanOrEqual(OPTIONS.experiences / 2);
    expect(tables.order_items).toBeGreaterThan(OPTIONS.orders);
    expect(tables.order_items).toBeLessThanOrEqual(OPTIONS.orders * 3);
    expect(summary.counts).toEqual(tables);
    expect(summary.options).toEqual(OPTIONS);

    const [biggest] = await rows<{ seller_id: string }>(
      sql`select seller_id from orders group by seller_id
          order by count(*) desc, seller_id limit 1`,
    );
    expect(summary.biggestSeller).toBe(biggest!.seller_id);

    // Every seller has an experience; every experience has an event.
    expect(
      await rows(sql`select id from users where roles = array['ROLE_SELLER']
                     and not exists (select 1 from experiences x where x.seller_id = users.id)`),
    ).toEqual([]);
    expect(
      await rows(sql`select id from experiences x
                     where not exists (select 1 from events e where e.experience_id = x.id)`),
    ).toEqual([]);
  });

  it('gives every order one to three items of one seller, with the order copied onto them', async () => {
    const sizes = await rows<{ items: number; orders: number }>(
      sql`select items, count(*)::int as orders
          from (select o.id, count(i.id)::int as items
                from orders o left join order_items i on i.order_id = o.id group by o.id) c
          group by items order by items`,
    );
    expect(sizes.map((s) => s.items).every((n) => n >= 1 && n <= 3)).toBe(true);
    // Not all the same size: the check above is not vacuous.
    expect(sizes.length).toBeGreaterThan(1);

    // The order's seller is the seller of each item's event's experience; the copies on
    // the item match the order and the event.
    expect(
      await rows(sql`
        select i.id from order_items i
        join orders o on o.id = i.order_id
        join events e on e.id = i.event_id
        join experiences x on x.id = e.experience_id
        where o.seller_id <> x.seller_id or e.seller_id <> x.seller_id
           or i.seller_id <> o.seller_id
           or i.customer_id is distinct from o.customer_id
           or i.experience_id <> e.experience_id
           or i.name <> x.name or i.timezone <> x.timezone
           or i.arrival_datetime <> e.starts_at
           or i.arrival <> (e.starts_at at time zone x.timezone)::date
           or i.arrival_time <> extract(hour from e.starts_at at time zone x.timezone) * 100
                                + extract(minute from e.starts_at at time zone x.timezone)
           or o.currency <> x.currency`),
    ).toEqual([]);

    // A canceled order has only canceled items (700), a confirmed one only confirmed (200).
    expect(
      await rows(sql`
        select i.id from order_items i join orders o on o.id = i.order_id
        where i.status <> case o.status when 'canceled' then 700 else 200 end`),
    ).toEqual([]);
    const [mix] = await rows<{ canceled: number; registered: number; guests: number }>(sql`
      select count(*) filter (where status = 'canceled')::int as canceled,
             count(*) filter (where customer_id is not null)::int as registered,
             count(*) filter (where customer_id is null)::int as guests
      from orders`);
    expect(mix!.canceled).toBeGreaterThan(0);
    expect(mix!.registered).toBeGreaterThan(0);
    expect(mix!.guests).toBeGreaterThan(0);

    // A registered customer's order carries its name and email.
    expect(
      await rows(sql`
        select o.id from orders o join users u on u.id = o.customer_id
        where o.customer_name <> u.name or o.customer_email is distinct from u.email
           or u.roles <> array['ROLE_DEVELOPER']`),
    ).toEqual([]);
  });

  it('prices items and orders as the service does', async () => {
    // Item: price per seat for `person`, one price for `outing` (orders.rules itemAmount);
    // order: the sum of its items, its arrival the earliest (orders.service write()).
    expect(
      await rows(sql`
        select i.id from order_items i join experiences x on x.id = i.experience_id
        where i.price <> x.price
           or i.amount <> case x.price_type when 'person' then round(x.price * i.quantity, 2)
                                            else x.price end`),
    ).toEqual([]);
    expect(
      await rows(sql`
        select o.id, o.amount, s.amount as items_amount
        from orders o
        join (select order_id, sum(amount) as amount, min(arrival) as arrival
              from order_items group by order_id) s on s.order_id = o.id
        where o.amount <> s.amount or o.arrival <> s.arrival`),
    ).toEqual([]);
    expect(await rows(sql`select id from orders where amount <= 0`)).toEqual([]);
  });

  it("sets each event's reserved seats to its confirmed items' seats, never above max", async () => {
    expect(
      await rows(sql`
        select e.id, e.reserved, coalesce(s.seats, 0) as seats, e.max
        from events e
        left join (select event_id, sum(quantity)::int as seats from order_items
                   where status = 200 group by event_id) s on s.event_id = e.id
        where e.reserved <> coalesce(s.seats, 0) or (e.max is not null and e.reserved > e.max)
           or e.seller_id <> (select seller_id from experiences x where x.id = e.experience_id)`),
    ).toEqual([]);
    const [booked] = await rows<{ n: number }>(
      sql`select count(*)::int as n from events where reserved > 0`,
    );
    expect(booked!.n).toBeGreaterThan(0);
    // Guides assigned to an event are the event's seller's.
    expect(
      await rows(sql`
        select e.id, g.id as guide from events e cross join lateral unnest(e.guide_ids) gid
        left join guides g on g.id = gid
        where g.id is null or g.seller_id <> e.seller_id`),
    ).toEqual([]);
  });

  it('makes ids that sort by creation time, orders inside the window', async () => {
    expect(
      await rows(sql`
        select id from (select id, created_at,
                               lag(created_at) over (order by id) as previous from orders) o
        where created_at < previous`),
    ).toEqual([]);
    const [window] = await rows<{ outside: number }>(sql`
      select count(*)::int as outside from orders
      where created_at < timestamptz '2024-01-07T00:00:00Z'
         or created_at > timestamptz '2024-01-07T00:00:00Z' + interval '364 days'
         or updated_at < created_at`);
    expect(window!.outside).toBe(0);
  });

  it('puts back every index and constraint it set aside while loading', async () => {
    expect(await schemaOf(db)).toEqual(schemaBeforeSeed);
  });

  it('stores real API keys: digest and ciphertext of one key, bound to the user', async () => {
    const users = await rows<{ id: string; digest: Buffer; ciphertext: Buffer }>(
      sql`select id, api_key_digest as digest, api_key_ciphertext as ciphertext from users`,
    );
    for (const user of users) {
      const key = settings.cipher.decrypt(user.ciphertext, user.id);
      expect(apiKeyDigest(key).equals(user.digest)).toBe(true);
    }
    expect(new Set(users.map((u) => u.digest.toString('hex'))).size).toBe(users.length);
  });
});

describe('cli seed: determinism and refusal', () => {
  it('refuses a database that holds data, and changes nothing', async () => {
    const before = await digest(db);
    await expect(seedDatabase(db, OPTIONS, settings)).rejects.toBeInstanceOf(SeedRefusedError);
    await expect(seedDatabase(db, { ...OPTIONS, seed: 8 }, settings)).rejects.toThrow(
      /already holds/,
    );
    expect(await digest(db)).toEqual(before);
    expect(await schemaOf(db)).toEqual(schemaBeforeSeed);
  });

  let other: Database | undefined;
  afterAll(async () => other?.close());

  it('makes the same rows for the same options and seed, in any batch size', async () => {
    other = await createTestDatabase();
    const again = await seedDatabase(other.db, { ...OPTIONS, batch: 1000 }, settings);
    expect(again.counts).toEqual(summary.counts);
    expect(again.biggestSeller).toBe(summary.biggestSeller);
    expect(await digest(other.db)).toEqual(digestAfterSeed);
  });

  it('reseeds a seeded database with --reset: another seed, then the first data set again', async () => {
    expect(other).toBeDefined();
    // Another seed gives other rows (so the digest does tell data sets apart) ...
    await seedDatabase(other!.db, { ...OPTIONS, seed: 8, reset: true }, settings);
    const reseeded = await digest(other!.db);
    for (const table of ['users', 'experiences', 'events', 'orders', 'order_items'])
      expect(reseeded[table], table).not.toBe(digestAfterSeed[table]);
    // ... and --reset back to the first seed leaves nothing of it.
    await seedDatabase(other!.db, { ...OPTIONS, reset: true }, settings);
    expect(await digest(other!.db)).toEqual(digestAfterSeed);
    expect(await schemaOf(other!.db)).toEqual(schemaBeforeSeed);
  });
});

describe('cli seed: served by the API', () => {
  it('lets a seeded seller read its orders with its own key, counted as in SQL', async () => {
    const [seller] = await rows<{ id: string; email: string; orders: number }>(sql`
      select u.id, u.email, (select count(*)::int from orders o where o.seller_id = u.id) as orders
      from users u where u.id = ${summary.biggestSeller}`);
    expect(seller!.orders).toBeGreaterThan(0);

    // An admin reads the seeded key through the API, as the command's summary says.
    const admin = await createAdmin(t);
    const keyResponse = await as(t.app, admin, {
      method: 'GET',
      url: `/api/users/${seller!.id}/apiKey`,
    });
    expect(keyResponse.statusCode).toBe(200);
    const apiKey = keyResponse.json().apiKey as string;

    const me = await as(t.app, { apiKey }, { method: 'GET', url: `/api/users/${seller!.id}` });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: seller!.id, roles: ['ROLE_SELLER'] });

    const list = await as(
      t.app,
      { apiKey },
      { method: 'GET', url: `/api/orders?seller=${seller!.id}&count=true&limit=100` },
    );
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.paging.total).toBe(seller!.orders);
    expect(body.data.length).toBe(Math.min(100, seller!.orders));
    for (const order of body.data) expect(order.seller.id).toBe(seller!.id);
    // Every live seat is a guest with its own ticket code, as a booking makes them.
    for (const order of body.data)
      for (const item of order.items)
        expect(item.guests).toHaveLength(item.status === 700 ? 0 : item.quantity);
    const codes = body.data.flatMap((o: { items: { guests: { ticketCode: string }[] }[] }) =>
      o.items.flatMap((i) => i.guests.map((g) => g.ticketCode)),
    );
    expect(new Set(codes).size).toBe(codes.length);

    // The seeded password works too (HTTP Basic).
    const basic = await t.app.inject({
      method: 'GET',
      url: `/api/users/${seller!.id}`,
      headers: {
        authorization: 'Basic ' + Buffer.from(`${seller!.email}:${PASSWORD}`).toString('base64'),
      },
    });
    expect(basic.statusCode).toBe(200);
  });

  it('seeds events the API books: a real departure of the schedule, found, not made again', async () => {
    // An event with a seat left, of a visible experience, and the arrival of one of its items.
    const [target] = await rows<{
      event_id: string;
      seller_id: string;
      experience_id: string;
      arrival: string;
      arrival_time: number;
      reserved: number;
    }>(sql`
      select e.id as event_id, e.seller_id, e.experience_id, i.arrival, i.arrival_time,
             e.reserved
      from events e
      join experiences x on x.id = e.experience_id
      join order_items i on i.event_id = e.id
      where (e.max is null or e.reserved < e.max)
        and x.order_min is null and x.order_max is null
      order by e.id limit 1`);
    expect(target).toBeDefined();
    const events = await rows<{ n: number }>(sql`select count(*)::int as n from events`);

    const admin = await createAdmin(t);
    const apiKey = (
      await as(t.app, admin, { method: 'GET', url: `/api/users/${target!.seller_id}/apiKey` })
    ).json().apiKey as string;
    // The seller books its own departure (staff may book one that has started).
    const booked = await as(
      t.app,
      { apiKey },
      {
        method: 'POST',
        url: '/api/orders',
        payload: {
          customerName: 'Walk In',
          customerEmail: null,
          items: [
            {
              experience: { id: target!.experience_id },
              arrival: target!.arrival,
              arrivalTime: target!.arrival_time,
              quantity: 1,
            },
          ],
        },
      },
    );
    expect(booked.statusCode, booked.body).toBe(201);
    expect(booked.json().items[0].event.id).toBe(target!.event_id);
    const [after] = await rows<{ reserved: number }>(
      sql`select reserved from events where id = ${target!.event_id}`,
    );
    expect(after!.reserved).toBe(target!.reserved + 1);
    expect(await rows<{ n: number }>(sql`select count(*)::int as n from events`)).toEqual(events);
  });
});
