/**
 * Short codes are unique per seller: an insert that draws a code the seller already has
 * draws again (within the same transaction, no error), another seller may hold the same
 * code, and a generator that only ever collides ends in an error rather than a duplicate.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/db/ids.js';
import { ordersRepository } from '../../src/modules/orders/orders.repository.js';
import type { OrderRow } from '../../src/modules/orders/orders.schemas.js';
import { createTestDatabase } from '../helpers/database.js';
import { insertUser } from '../helpers/factories.js';

let database: Database;
let sellers: [string, string];
beforeAll(async () => {
  database = await createTestDatabase();
  sellers = [await insertUser(database.db), await insertUser(database.db)];
});
afterAll(async () => database.close());

const order = (sellerId: string): OrderRow => ({
  id: newId(),
  seller_id: sellerId,
  customer_id: null,
  customer_name: 'Guest',
  customer_email: null,
  phone: null,
  source: null,
  status: 'confirmed',
  short_code: '',
  arrival: '2030-06-01',
  amount: 10,
  currency: 'EUR',
  payment_method: null,
  notes: [],
  adjustments: [],
  hold_expires_at: null,
  created_at: new Date(),
  updated_at: new Date(),
});

/** A generator returning these codes in turn. */
const codes = (...list: string[]) => {
  let next = 0;
  return () => list[next++ % list.length]!;
};

describe('short codes', () => {
  it('draws again when the seller has the code, and lets another seller have it', async () => {
    const orders = ordersRepository(database.db);
    expect(await orders.insertWithShortCode(order(sellers[0]), codes('AAAAAAAA'))).toBe('AAAAAAAA');
    const second = order(sellers[0]);
    const got = await database.db
      .transaction()
      .execute((tx) =>
        ordersRepository(tx).insertWithShortCode(second, codes('AAAAAAAA', 'BBBBBBBB')),
      );
    expect(got).toBe('BBBBBBBB');
    expect(await orders.insertWithShortCode(order(sellers[1]), codes('AAAAAAAA'))).toBe('AAAAAAAA');
    const stored = await database.db
      .selectFrom('orders')
      .select(['seller_id', 'short_code'])
      .where('short_code', 'in', ['AAAAAAAA', 'BBBBBBBB'])
      .orderBy('short_code')
      .orderBy('seller_id')
      .execute();
    expect(stored).toHaveLength(3);
    expect(stored.find((r) => r.short_code === 'BBBBBBBB')?.seller_id).toBe(sellers[0]);
  });

  it('gives up with an error, never a duplicate, when every draw collides', async () => {
    await expect(
      ordersRepository(database.db).insertWithShortCode(order(sellers[0]), codes('AAAAAAAA')),
    ).rejects.toThrow(/No free short code/);
    const count = await database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('seller_id', '=', sellers[0])
      .where('short_code', '=', 'AAAAAAAA')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('gives the release before codes from the database while a rolling deploy runs both', async () => {
    // The previous release's insert: no short code, no ticket code.
    const id = newId();
    await sql`insert into orders (id, seller_id, customer_name, status, arrival, amount, currency)
              values (${id}, ${sellers[1]}, 'Old Release', 'confirmed', '2030-06-01', 5, 'EUR')`.execute(
      database.db,
    );
    const row = await database.db
      .selectFrom('orders')
      .select('short_code')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.short_code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$/);
  });
});
