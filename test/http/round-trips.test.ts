/**
 * What a request costs the database, in statements (BEGIN and COMMIT included), as
 * docs/performance.md states it: a booking reads its experiences, then in one transaction
 * takes its seats (one statement per departure, the event made when missing) and writes
 * its order, items, domain events, email and Idempotency-Key answer in one statement. Reads
 * of one order and of a list are one statement each once the caller's key is cached. On a
 * real server BEGIN goes out in the same message as the statement after it, and a
 * booking's COMMIT with its writes (db/pipelined-transaction.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { onPostgres } from '../helpers/database.js';
import { countStatements, type Statements } from '../helpers/statement-counter.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 3 } });
  customer = await signUp(t.app);
  // The customer's key is cached from here on, as it is under load.
  await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-01')] });
});
afterAll(async () => t.close());

const shape = (statements: string[]) =>
  statements.map((s) => s.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase());
/**
 * Round trips of statements with one transaction among them, whose BEGIN (and, when it
 * commits with its last statement, COMMIT) rides along on a real server.
 */
const oneTransaction = (statements: Statements, ends: 'begin' | 'begin and commit') =>
  expect(statements.roundTrips).toBe(
    statements.length - (onPostgres ? (ends === 'begin' ? 1 : 2) : 0),
  );

describe('statements per request', () => {
  it('books a new departure in five statements, its writes in one', async () => {
    let status = 0;
    const statements = await countStatements(async () => {
      status = (await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-02')] }))
        .statusCode;
    });
    expect(status).toBe(201);
    expect(shape(statements)).toEqual([
      'select * from',
      'begin',
      'with "made" as',
      'with "w0" as',
      'commit',
    ]);
    oneTransaction(statements, 'begin and commit');
    const writes = statements[3]!;
    for (const table of ['orders', 'order_items', 'order_guests', 'domain_events', 'outbox'])
      expect(writes).toContain(`insert into "${table}"`);
  });

  it('books an existing departure the same way, and two departures with one more', async () => {
    const existing = await countStatements(() =>
      book(t.app, customer, { items: [item(shop.experienceId, '2030-06-02')] }),
    );
    expect(existing).toHaveLength(5);
    oneTransaction(existing, 'begin and commit');
    const two = await countStatements(() =>
      book(t.app, customer, {
        items: [item(shop.experienceId, '2030-06-03'), item(shop.experienceId, '2030-06-03', 1400)],
      }),
    );
    expect(shape(two).filter((s) => s === 'with "made" as')).toHaveLength(2);
    expect(two).toHaveLength(6);
    oneTransaction(two, 'begin and commit');
  });

  it('adds only the claim for an Idempotency-Key, whose answer is written with the booking', async () => {
    const headers = { 'idempotency-key': 'round-trips-1' };
    const payload = { items: [item(shop.experienceId, '2030-06-04')] };
    const first = await countStatements(() => book(t.app, customer, payload, headers));
    expect(shape(first)[0]).toBe('insert into "idempotency_keys"');
    expect(first).toHaveLength(6);
    expect(first[4]).toContain('update "idempotency_keys"');
    oneTransaction(first, 'begin and commit');
    // The replay reads the stored answer: no booking, no transaction.
    let replay = { statusCode: 0, id: '' };
    const again = await countStatements(async () => {
      const response = await book(t.app, customer, payload, headers);
      replay = { statusCode: response.statusCode, id: response.json().id };
    });
    expect(replay.statusCode).toBe(201);
    expect(again).toHaveLength(2);
  });

  it('refuses a full departure after telling a lack of room from a race, and writes nothing', async () => {
    await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-05', 900, 3)] });
    let status = 0;
    const statements = await countStatements(async () => {
      status = (await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-05')] }))
        .statusCode;
    });
    expect(status).toBe(409);
    // The seats statement took nothing; the departure read afresh is full: refused.
    expect(shape(statements)).toEqual([
      'select * from',
      'begin',
      'with "made" as',
      'select "e".*, "x"."name"',
      'rollback',
    ]);
    oneTransaction(statements, 'begin');
  });

  it('reads one order, and a page of orders, in one statement each', async () => {
    const order = await book(t.app, customer, { items: [item(shop.experienceId, '2030-06-06')] });
    const one = await countStatements(() =>
      as(t.app, customer, { method: 'GET', url: `/api/orders/${order.json().id}` }),
    );
    expect(one).toHaveLength(1);
    expect(one.roundTrips).toBe(1);
    const list = await countStatements(() =>
      as(t.app, shop.seller, { method: 'GET', url: '/api/orders?limit=5' }),
    );
    // The seller's key is read once (the first request), then the list query alone.
    await as(t.app, shop.seller, { method: 'GET', url: '/api/orders?limit=5' });
    const cached = await countStatements(() =>
      as(t.app, shop.seller, { method: 'GET', url: '/api/orders?limit=5' }),
    );
    expect(list.length).toBeLessThanOrEqual(2);
    expect(cached).toHaveLength(1);
  });
});
