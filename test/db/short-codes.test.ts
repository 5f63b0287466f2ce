/**
 * Short codes drawn by the database: the previous release's inserts (which send none)
 * still get one while a rolling deploy runs both. How a booking draws its code, and draws
 * again on a collision, is tested through the API (test/http/short-codes.test.ts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/db/ids.js';
import { createTestDatabase } from '../helpers/database.js';
import { insertUser } from '../helpers/factories.js';

let database: Database;
let sellers: [string, string];
beforeAll(async () => {
  database = await createTestDatabase();
  sellers = [await insertUser(database.db), await insertUser(database.db)];
});
afterAll(async () => database.close());

describe('short codes', () => {
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
