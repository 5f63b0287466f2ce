/**
 * The relay cap under concurrency on a real PostgreSQL server (docs/booking.md, "Not a
 * relay"): one customer's bookings sent at once, each naming a stranger's address, queue at
 * most CONFIRMATIONS_TO_OTHERS_PER_HOUR confirmations between them; every booking stands.
 * (The embedded database runs one transaction at a time, so only a server shows the race.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { DEPARTURE, createExperience, runPool } from './booking-helpers.js';

let t: TestApp;
let experienceId: string;
let spammer: Account;

beforeAll(async () => {
  t = await createTestApp({ CONFIRMATIONS_TO_OTHERS_PER_HOUR: '3' });
  const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  experienceId = await createExperience(t.app, seller);
  spammer = await signUp(t.app, { name: 'Spammy' });
});
afterAll(async () => t.close());

describe('the relay cap', () => {
  it('holds when one customer books for thirty strangers at once', async () => {
    const bookings = Array.from(
      { length: 30 },
      (_, i) => () =>
        as(t.app, spammer, {
          method: 'POST',
          url: '/api/orders',
          payload: {
            customerName: 'Someone',
            customerEmail: `target${i}@example.com`,
            // Each its own departure: on one, the event's row lock would serialize them.
            items: [
              {
                experience: { id: experienceId },
                arrival: `2030-07-${String(i + 1).padStart(2, '0')}`,
                arrivalTime: DEPARTURE,
                quantity: 1,
              },
            ],
          },
        }),
    );
    const answers = await runPool(bookings, 10);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(201));
    const mailed = await t.database.db
      .selectFrom('outbox')
      .select('recipient')
      .where('sender_id', '=', spammer.id)
      .where('kind', '=', 'order_confirmation')
      .execute();
    expect(mailed).toHaveLength(3);
  });
});
