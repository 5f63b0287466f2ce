/**
 * A reseller's holds do not outlive its credential, nor a day (review-octo finding 3): when
 * the seller revokes a credential (or removes the delegate that made it), the credential's
 * holds end in the same transaction: their seats are back for sale from the answer on, and
 * the bookings read EXPIRED, as holds the sweeper released do; what it confirmed stays
 * booked. An extend (or an update's expirationMinutes) may not keep a hold past its reserve
 * plus 24 hours, the longest hold a reserve may ask: UNPROCESSABLE_ENTITY naming the limit.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/unit-of-work.js';
import { resellerBookings } from '../../src/modules/orders/index.js';
import { resellersFacade } from '../../src/modules/resellers/index.js';
import type { DomainEvent } from '../../src/outbox/index.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { delegate } from '../helpers/guides.js';
import {
  createAffiliate,
  createExperience,
  daily,
  expectOctoError,
  octo,
} from '../helpers/octo.js';

let t: TestApp;
let seller: Account;
let experienceId: string;

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  experienceId = (
    await createExperience(t.app, seller, {
      timezone: 'UTC',
      group: { outingMax: 10, orderMax: 10 },
      schedules: daily([900]),
    })
  ).id;
});

afterAll(async () => t?.close());

let days = 0;
/** A departure of its own for each call: its availability id. */
const nextDeparture = () =>
  `${new Date(Date.now() + (10 + ++days) * 86_400_000).toISOString().slice(0, 10)}T09:00:00Z`;

/** A hold of `seats` at `availabilityId`: the booking as OCTo answers it. */
async function hold(key: string, availabilityId: string, seats: number, minutes = 1440) {
  const response = await octo(t.app, key, 'POST', '/bookings', {
    productId: experienceId,
    optionId: 'DEFAULT',
    availabilityId,
    expirationMinutes: minutes,
    unitItems: Array.from({ length: seats }, () => ({ unitId: 'adult' })),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Seats left at each departure, through the seller's own key on /octo. */
async function vacancies(availabilityIds: string[]): Promise<number[]> {
  const dates = availabilityIds.map((id) => id.slice(0, 10)).sort();
  const response = await octo(t.app, seller.apiKey, 'POST', '/availability', {
    productId: experienceId,
    optionId: 'DEFAULT',
    localDateStart: dates[0],
    localDateEnd: dates.at(-1),
  });
  expect(response.statusCode, response.body).toBe(200);
  const byId = new Map<string, number>(
    response.json().map((a: { id: string; vacancies: number }) => [a.id, a.vacancies]),
  );
  return availabilityIds.map((id) => byId.get(id)!);
}

/** The order's item status and deadline as the seller reads it, and its OCTo record. */
async function ended(orderId: string) {
  const order = (await as(t.app, seller, { method: 'GET', url: `/api/orders/${orderId}` })).json();
  const read = await resellerBookings.read(t.database.db, orderId);
  return {
    status: order.items[0].status,
    holdExpiresAt: order.holdExpiresAt,
    cancellation: read!.record.cancellation,
  };
}

describe('revoking a reseller credential', () => {
  it('releases its holds at once and keeps what it confirmed', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Leaky' });
    const held = [nextDeparture(), nextDeparture(), nextDeparture()];
    const holds = [];
    for (const at of held) holds.push(await hold(affiliate.apiKey, at, 10));
    const confirmedAt = nextDeparture();
    const kept = await hold(affiliate.apiKey, confirmedAt, 4, 30);
    const confirm = await octo(t.app, affiliate.apiKey, 'POST', `/bookings/${kept.uuid}/confirm`, {
      contact: { fullName: 'Kept Guest' },
    });
    expect(confirm.json().status).toBe('CONFIRMED');
    expect(await vacancies([...held, confirmedAt])).toEqual([0, 0, 0, 6]);

    const revoked = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${affiliate.id}`,
    });
    expect(revoked.statusCode).toBe(204);

    // From the answer on, the seats are for sale again; the confirmed booking keeps its own.
    expect(await vacancies([...held, confirmedAt])).toEqual([10, 10, 10, 6]);
    for (const booking of holds) {
      // EXPIRED, as a hold the sweeper released: the reseller never confirmed it.
      expect(await ended(booking.id)).toEqual({
        status: 700,
        holdExpiresAt: null,
        cancellation: { at: expect.any(Date), reason: null, expired: true },
      });
    }
    expect(await ended(kept.id)).toMatchObject({ status: 200, cancellation: null });
    expectOctoError(
      await octo(t.app, affiliate.apiKey, 'GET', `/bookings/${holds[0].uuid}`),
      'FORBIDDEN',
    );
  });

  it('leaves the holds of the seller’s other credentials alone', async () => {
    const revokedOne = await createAffiliate(t.app, seller, { name: 'Gone' });
    const other = await createAffiliate(t.app, seller, { name: 'Stays' });
    const at = nextDeparture();
    const mine = await hold(revokedOne.apiKey, at, 3);
    const theirs = await hold(other.apiKey, at, 5);
    expect(await vacancies([at])).toEqual([2]);
    const revoked = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${revokedOne.id}`,
    });
    expect(revoked.statusCode).toBe(204);
    expect(await vacancies([at])).toEqual([5]);
    expect((await ended(mine.id)).status).toBe(700);
    const still = await octo(t.app, other.apiKey, 'GET', `/bookings/${theirs.uuid}`);
    expect(still.json().status).toBe('ON_HOLD');
  });

  it('releases the holds of a credential that ends with its maker’s delegation', async () => {
    const admin = await delegate(t.app, seller, ['ROLE_SELLER_ADMIN'], 'Former Admin');
    const made = await as(t.app, admin, {
      method: 'POST',
      url: `/api/users/${seller.id}/affiliates`,
      payload: { name: 'Made by a delegate' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const at = nextDeparture();
    const booking = await hold(made.json().apiKey, at, 10);
    expect(await vacancies([at])).toEqual([0]);
    const delegations = await as(t.app, seller, {
      method: 'GET',
      url: `/api/users/${seller.id}/delegates`,
    });
    const delegation = delegations
      .json()
      .data.find((d: { user: { id: string } | null }) => d.user?.id === admin.id);
    const removed = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/delegates/${delegation.id}`,
    });
    expect(removed.statusCode).toBe(204);
    expect(await vacancies([at])).toEqual([10]);
    expect((await ended(booking.id)).cancellation).toMatchObject({ expired: true });
  });
});

describe('the events of a revocation’s releases', () => {
  it('go where the revocation is told, as the sweeper’s do', async () => {
    const maker = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const own = (
      await createExperience(t.app, maker, {
        timezone: 'UTC',
        group: { outingMax: 10, orderMax: 10 },
        schedules: daily([900]),
      })
    ).id;
    const affiliate = await createAffiliate(t.app, maker, { name: 'Evented' });
    const booking = (
      await octo(t.app, affiliate.apiKey, 'POST', '/bookings', {
        productId: own,
        optionId: 'DEFAULT',
        availabilityId: nextDeparture(),
        unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
      })
    ).json();
    const emitted: DomainEvent[] = [];
    const domainEvents = {
      emit: async (_tx: unknown, event: DomainEvent) => void emitted.push(event),
    };
    // What the seller made ends as a delegate's does (the facade the delegates module calls).
    const ids = await inTransaction(t.database.db, (tx) =>
      resellersFacade.revokeMadeBy(tx, maker.id, maker.id, { domainEvents }),
    );
    expect(ids).toEqual([affiliate.id]);
    expect(emitted.map((e) => e.name).sort()).toEqual(['event.update', 'order.cancel']);
    const cancel = emitted.find((e) => e.name === 'order.cancel')!;
    expect(cancel).toMatchObject({ sellerId: maker.id, actorId: null });
    expect((cancel as { object: { id: string } }).object.id).toBe(booking.id);
  });
});

describe('a hold’s whole life', () => {
  /** The hold's reserve moved `minutes` into the past, its deadline 5 minutes ahead. */
  async function reservedAgo(orderId: string, minutes: number): Promise<void> {
    const reservedAt = new Date(Date.now() - minutes * 60_000);
    const deadline = new Date(Date.now() + 5 * 60_000);
    // created_at is written once by the code (its type has no update): by hand here.
    await sql`update orders set created_at = ${reservedAt}, hold_expires_at = ${deadline}
      where id = ${orderId}`.execute(t.database.db);
  }

  it('is at most 24 hours from its reserve: an extend past that is refused', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Renewer' });
    const booking = await hold(affiliate.apiKey, nextDeparture(), 2, 1440);
    const extend = (minutes: number) =>
      octo(t.app, affiliate.apiKey, 'POST', `/bookings/${booking.uuid}/extend`, {
        expirationMinutes: minutes,
      });
    // 23 hours after the reserve: an hour left of its day.
    await reservedAgo(booking.id, 23 * 60);
    const refused = expectOctoError(await extend(1440), 'UNPROCESSABLE_ENTITY');
    expect(refused.errorMessage).toMatch(/at most 1440 minutes \(24 hours\) from its reserve/);
    // An update that would move the deadline past it is refused too.
    expectOctoError(
      await octo(t.app, affiliate.apiKey, 'PATCH', `/bookings/${booking.uuid}`, {
        expirationMinutes: 120,
      }),
      'UNPROCESSABLE_ENTITY',
    );
    const unchanged = await octo(t.app, affiliate.apiKey, 'GET', `/bookings/${booking.uuid}`);
    expect(unchanged.json().status).toBe('ON_HOLD');
    expect(Date.parse(unchanged.json().utcExpiresAt) - Date.now()).toBeLessThan(6 * 60_000);

    // Within it, an extend still works.
    const extended = await extend(45);
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json().status).toBe('ON_HOLD');
    const left = Date.parse(extended.json().utcExpiresAt) - Date.now();
    expect(left).toBeGreaterThan(44 * 60_000);
    expect(left).toBeLessThanOrEqual(45 * 60_000);
  });

  it('lets a fresh hold be extended by an hour', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Ordinary' });
    const booking = await hold(affiliate.apiKey, nextDeparture(), 1, 30);
    const extended = await octo(
      t.app,
      affiliate.apiKey,
      'POST',
      `/bookings/${booking.uuid}/extend`,
      { expirationMinutes: 60 },
    );
    expect(extended.statusCode, extended.body).toBe(200);
    expect(Date.parse(extended.json().utcExpiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);
  });
});
