/**
 * A reserve under way when its credential is revoked never keeps a hold (docs/octo.md,
 * "Holds"; docs/security.md, "Reseller credentials (OCTo)"). A reserve is authenticated
 * before its booking transaction, possibly from the caller cache; the revocation releases the
 * credential's holds in its own transaction. Without an order between the two, a reserve
 * authenticated just before the revocation committed its hold just after it: seats kept from
 * sale for up to 24 hours under a revoked credential. The reserve now locks the credential's
 * row (share mode) first in its transaction, so one of them always sees the other:
 *
 * - a reserve already in its transaction holds the revocation up until it commits, and the
 *   revocation then releases its hold too;
 * - a reserve that comes while a revocation is under way waits for it and is refused
 *   (FORBIDDEN, as the credential now is).
 *
 * Only real row locks show it: a plain connection of the test's own holds a lock so that a
 * request waits at a known point while the other runs (as hook-creation-races.test.ts).
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { openLocker, waitingOnLock } from '../helpers/lock-waits.js';
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
let locker: pg.Client;

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
  locker = await openLocker(t.database);
});
afterAll(async () => {
  await locker?.end();
  await t?.close();
});

let days = 0;
/** A departure of its own for each call: its availability id. */
const nextDeparture = () =>
  `${new Date(Date.now() + (10 + ++days) * 86_400_000).toISOString().slice(0, 10)}T09:00:00Z`;

const reserve = (key: string, availabilityId: string, seats: number) =>
  octo(t.app, key, 'POST', '/bookings', {
    productId: experienceId,
    optionId: 'DEFAULT',
    availabilityId,
    expirationMinutes: 1440,
    unitItems: Array.from({ length: seats }, () => ({ unitId: 'adult' })),
  });

const revoke = (affiliateId: string) =>
  as(t.app, seller, {
    method: 'DELETE',
    url: `/api/users/${seller.id}/affiliates/${affiliateId}`,
  });

/** The credential's bookings still holding seats unconfirmed (what a revocation must end). */
const liveHolds = async (affiliateId: string): Promise<number> =>
  (
    await locker.query<{ n: number }>(
      `select count(*)::int as n from reseller_bookings b join orders o on o.id = b.order_id
        where b.booker_id = $1 and o.hold_expires_at is not null`,
      [affiliateId],
    )
  ).rows[0]!.n;

/** Seats taken at a departure (0 when it has no event). */
const reserved = async (availabilityId: string): Promise<number> =>
  (
    await locker.query<{ n: number }>(
      `select coalesce(sum(reserved), 0)::int as n from events
        where experience_id = $1 and starts_at = $2`,
      [experienceId, new Date(availabilityId)],
    )
  ).rows[0]!.n;

describe('a reserve and its credential’s revocation at once', () => {
  it('a reserve already booking holds the revocation up, which then releases its hold', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Racing' });
    const other = await createAffiliate(t.app, seller, { name: 'Bystander' });
    const at = nextDeparture();
    // The departure's event exists (another reseller's hold of one seat), so the test can
    // lock it: the reserve then waits in its transaction, past its authentication.
    expect((await reserve(other.apiKey, at, 1)).statusCode).toBe(200);
    await locker.query('begin');
    await locker.query(
      'select id from events where experience_id = $1 and starts_at = $2 for update',
      [experienceId, new Date(at)],
    );
    const reserving = reserve(affiliate.apiKey, at, 4);
    expect(await waitingOnLock(locker, 1)).toBe(true);
    const revoking = revoke(affiliate.id);
    // The revocation either waits for the reserve (fixed) or commits at once (the race).
    await Promise.race([revoking, waitingOnLock(locker, 2)]);
    await locker.query('rollback');

    const reserved4 = await reserving;
    expect(reserved4.statusCode, reserved4.body).toBe(200);
    expect(reserved4.json().status).toBe('ON_HOLD');
    expect((await revoking).statusCode).toBe(204);
    // The hold made before the revocation ended with it: its seats are back.
    expect(await liveHolds(affiliate.id)).toBe(0);
    expect(await reserved(at)).toBe(1);
    const order = await as(t.app, seller, {
      method: 'GET',
      url: `/api/orders/${reserved4.json().id}`,
    });
    expect(order.json().items[0].status).toBe(700);
    expect(await liveHolds(other.id)).toBe(1);
  });

  it('a reserve that comes while the revocation runs waits for it and is refused', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Late' });
    const first = await reserve(affiliate.apiKey, nextDeparture(), 2);
    expect(first.statusCode, first.body).toBe(200);
    // The revocation waits in the release of its first hold, the credential already updated.
    await locker.query('begin');
    await locker.query('select id from orders where id = $1 for update', [first.json().id]);
    const revoking = revoke(affiliate.id);
    expect(await waitingOnLock(locker, 1)).toBe(true);
    const at = nextDeparture();
    const reserving = reserve(affiliate.apiKey, at, 3);
    // The reserve either waits for the revocation (fixed) or commits at once (the race).
    await Promise.race([reserving, waitingOnLock(locker, 2)]);
    await locker.query('rollback');

    expect((await revoking).statusCode).toBe(204);
    const refused = expectOctoError(await reserving, 'FORBIDDEN');
    expect(refused.errorMessage).toContain('revoked');
    expect(await liveHolds(affiliate.id)).toBe(0);
    expect(await reserved(at)).toBe(0);
  });
});
