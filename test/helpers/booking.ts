/**
 * A seller with a bookable experience, made through the public API, and the seats an event
 * holds, for booking tests.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.js';
import { as, signUp, type Account } from './app.js';

export interface Shop {
  seller: Account;
  experienceId: string;
}

/** Every day at 09:00 and 14:00 in `timezone`, `outingMax` seats per departure. */
export async function openShop(
  app: FastifyInstance,
  fields: Record<string, unknown> = {},
): Promise<Shop> {
  const seller = await signUp(app, { roles: ['ROLE_SELLER'] });
  const response = await as(app, seller, {
    method: 'POST',
    url: '/api/experiences',
    payload: {
      name: 'Harbour Kayak',
      price: 25.5,
      priceType: 'person',
      currency: 'EUR',
      duration: 90,
      timezone: 'Europe/Paris',
      group: { outingMax: 10 },
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900, 1400] },
      ],
      ...fields,
    },
  });
  if (response.statusCode !== 201) throw new Error(`experience not created: ${response.body}`);
  return { seller, experienceId: response.json().id };
}

export const item = (
  experienceId: string,
  arrival = '2030-06-01',
  arrivalTime = 900,
  quantity = 1,
) => ({
  experience: { id: experienceId },
  arrival,
  arrivalTime,
  quantity,
});

export function book(
  app: FastifyInstance,
  account: Account,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return as(app, account, { method: 'POST', url: '/api/orders', payload, headers });
}

/** The seats an event has reserved, read from the database. */
export const seatsReserved = async (db: Kysely<DB>, eventId: string): Promise<number> =>
  (
    await db
      .selectFrom('events')
      .select('reserved')
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow()
  ).reserved;
