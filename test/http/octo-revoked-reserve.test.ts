/**
 * A revoked reseller credential reserves nothing (docs/octo.md, "Holds"). Once the revocation
 * has answered, its reserve is refused at authentication (FORBIDDEN). A reserve authenticated
 * before the revocation (here: from the caller cache, the credential revoked behind the
 * service's back so that the cache still holds it) checks the credential again inside its
 * booking transaction, under the row's lock, and is refused the same way, its seats untaken:
 * the race itself, on real row locks, is test/postgres/octo-reserve-revocation-race.test.ts.
 * The seller's own key (no credential) books as before.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
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

const departure = `${new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10)}T09:00:00Z`;

const reserve = (key: string, seats: number) =>
  octo(t.app, key, 'POST', '/bookings', {
    productId: experienceId,
    optionId: 'DEFAULT',
    availabilityId: departure,
    unitItems: Array.from({ length: seats }, () => ({ unitId: 'adult' })),
  });

/** Seats taken at the departure (0 before it has an event). */
const taken = async (): Promise<number> => {
  const { rows } = await sql<{ n: number }>`
    select coalesce(sum(reserved), 0)::int as n from events
     where experience_id = ${experienceId} and starts_at = ${new Date(departure)}`.execute(
    t.database.db,
  );
  return rows[0]!.n;
};

describe('a reserve with a revoked credential', () => {
  it('is refused once the revocation has answered', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Revoked' });
    const revoked = await as(t.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${affiliate.id}`,
    });
    expect(revoked.statusCode).toBe(204);
    expectOctoError(await reserve(affiliate.apiKey, 2), 'FORBIDDEN');
    expect(await taken()).toBe(0);
  });

  it('is refused in its booking transaction when it was authenticated before', async () => {
    const affiliate = await createAffiliate(t.app, seller, { name: 'Cached' });
    // Authenticated once: the credential is in the caller cache from now on.
    expect((await octo(t.app, affiliate.apiKey, 'GET', '/supplier')).statusCode).toBe(200);
    const before = await taken();
    // Revoked behind the service's back: no notification, so the cache still passes it, as
    // it passes a reserve authenticated just before a real revocation commits.
    await sql`update reseller_credentials set revoked_at = now() where id = ${affiliate.id}`.execute(
      t.database.db,
    );
    expect((await octo(t.app, affiliate.apiKey, 'GET', '/supplier')).statusCode).toBe(200);

    const refused = expectOctoError(await reserve(affiliate.apiKey, 3), 'FORBIDDEN');
    expect(refused.errorMessage).toContain('the credential was revoked');
    expect(await taken()).toBe(before);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from reseller_bookings where booker_id = ${affiliate.id}`.execute(
      t.database.db,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('leaves the seller’s own key booking as before', async () => {
    const before = await taken();
    const own = await reserve(seller.apiKey, 1);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().status).toBe('ON_HOLD');
    expect(await taken()).toBe(before + 1);
  });
});
