/**
 * A reseller's retries of one reserve (the same uuid) sent at once on a departure with room
 * for one copy only (review-octo finding 2): every identical copy answers with the one
 * booking, never "sold out" for a booking the reseller holds, and the departure keeps one
 * booking's seats; a copy with another body is INVALID_BOOKING_UUID whichever came first
 * (docs/octo.md, "The uuid").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../helpers/app.js';
import { createAffiliate, createExperience, daily, octo } from '../helpers/octo.js';

let t: TestApp;
let key: string;
let experienceId: string;

const COPIES = 6;
const ROUNDS = 5;

beforeAll(async () => {
  t = await createTestApp();
  const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  key = (await createAffiliate(t.app, seller)).apiKey;
  // Room for exactly one booking of two seats per departure.
  experienceId = (
    await createExperience(t.app, seller, {
      timezone: 'UTC',
      group: { outingMax: 2, orderMax: 2 },
      schedules: daily([900]),
    })
  ).id;
});

afterAll(async () => t?.close());

/** A reserve of both seats of the departure `day` days ahead under `uuid`. */
const reserve = (day: number, uuid: string, reference = 'R-1') => {
  const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
  return {
    uuid,
    productId: experienceId,
    optionId: 'DEFAULT',
    availabilityId: `${date}T09:00:00Z`,
    resellerReference: reference,
    unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
  };
};

const uuidOf = (day: number) => `22222222-2222-4333-8444-${String(day).padStart(12, '0')}`;

/** The seats taken at the departure the body names. */
async function reservedAt(body: { availabilityId: string }): Promise<number> {
  const row = await t.database.db
    .selectFrom('events')
    .select('reserved')
    .where('experience_id', '=', experienceId)
    .where('starts_at', '=', new Date(body.availabilityId))
    .executeTakeFirstOrThrow();
  return row.reserved;
}

describe('retries of one reserve on the last seats', () => {
  it('answers every identical copy with the one booking', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const body = reserve(10 + round, uuidOf(10 + round));
      const answers = await Promise.all(
        Array.from({ length: COPIES }, () => octo(t.app, key, 'POST', '/bookings', body)),
      );
      const summary = answers.map((a) => `${a.statusCode} ${a.json().status ?? a.json().error}`);
      expect(summary).toEqual(Array(COPIES).fill('200 ON_HOLD'));
      expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
      expect(answers.every((a) => a.json().uuid === body.uuid)).toBe(true);
      expect(await reservedAt(body)).toBe(2);
    }
  });

  it('refuses a copy with another body as INVALID_BOOKING_UUID, never as sold out', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const day = 20 + round;
      const bodies = Array.from({ length: COPIES }, (_, i) =>
        reserve(day, uuidOf(day), i % 2 === 0 ? 'R-even' : 'R-odd'),
      );
      const answers = await Promise.all(
        bodies.map((b) => octo(t.app, key, 'POST', '/bookings', b)),
      );
      const won = answers.find((a) => a.statusCode === 200)!.json();
      answers.forEach((answer, i) => {
        if (bodies[i]!.resellerReference === won.resellerReference) {
          expect(answer.statusCode).toBe(200);
          expect(answer.json().id).toBe(won.id);
        } else {
          expect(answer.statusCode).toBe(400);
          expect(answer.json().error).toBe('INVALID_BOOKING_UUID');
        }
      });
      expect(await reservedAt(bodies[0]!)).toBe(2);
    }
  });
});
