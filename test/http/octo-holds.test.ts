/**
 * OCTo holds end at their deadline (docs/octo.md, "How bookings are made"): a confirmation
 * after the deadline is refused even before the sweeper has run (UNPROCESSABLE_ENTITY), and
 * once the hold sweeper released it the booking shows EXPIRED (its deadline as
 * utcExpiresAt, a cancellation), not CANCELLED. A hold that outlives its departure's start
 * is neither confirmed nor extended.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { expectOctoError, expectSpec, octo, openOctoShop, today } from '../helpers/octo.js';

/** An OCTo shop on `app`, a hold of one adult two days ahead for `minutes`, its confirmation. */
async function holdOn(app: FastifyInstance, minutes: number) {
  const mine = await openOctoShop(app);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    octo(app, mine.reseller.apiKey, method, url, body);
  const [first] = (
    await call('POST', '/availability', {
      productId: mine.tour,
      optionId: 'DEFAULT',
      localDate: today(2),
    })
  ).json();
  const held = (
    await call('POST', '/bookings', {
      productId: mine.tour,
      optionId: 'DEFAULT',
      availabilityId: first.id,
      expirationMinutes: minutes,
      unitItems: [{ unitId: mine.adult }],
    })
  ).json();
  const confirm = () =>
    call('POST', `/bookings/${held.uuid}/confirm`, { contact: { fullName: 'Late' } });
  return { call, held, confirm };
}

describe('holds that expire', () => {
  it('refuses to confirm a hold past its deadline, and shows it EXPIRED once swept', async () => {
    const swept = await createTestApp({ ORDER_HOLD_SWEEP: 'true', ORDER_HOLD_SWEEP_MS: '50' });
    try {
      const { call, held, confirm } = await holdOn(swept.app, 5);
      expect(Date.parse(held.utcExpiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
      // Five minutes later, as far as the hold knows.
      await swept.database.db
        .updateTable('orders')
        .set({ hold_expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', held.id)
        .execute();
      expectOctoError(await confirm(), 'UNPROCESSABLE_ENTITY');
      await eventually(async () => {
        const expired = (await call('GET', `/bookings/${held.uuid}`)).json();
        expectSpec('Bookings_GetBooking', expired);
        expect(expired).toMatchObject({
          status: 'EXPIRED',
          utcExpiresAt: expect.any(String),
          cancellation: { refund: 'FULL' },
        });
        const order = await swept.database.db
          .selectFrom('reseller_bookings')
          .select('expired')
          .where('order_id', '=', held.id)
          .executeTakeFirstOrThrow();
        expect(order.expired).toBe(true);
      });
    } finally {
      await swept.close();
    }
  });

  it('refuses to confirm or extend a hold once its departure started, within the deadline', async () => {
    const t = await createTestApp();
    try {
      const { call, held, confirm } = await holdOn(t.app, 60);
      // Reserved just before the departure: it starts while the hold still runs.
      await t.database.db
        .updateTable('order_items')
        .set({ arrival_datetime: new Date(Date.now() - 60_000) })
        .where('order_id', '=', held.id)
        .execute();
      expectOctoError(
        await call('POST', `/bookings/${held.uuid}/extend`, { expirationMinutes: 30 }),
        'UNPROCESSABLE_ENTITY',
      );
      expectOctoError(await confirm(), 'UNPROCESSABLE_ENTITY');
      const after = (await call('GET', `/bookings/${held.uuid}`)).json();
      expect(after).toMatchObject({ status: 'ON_HOLD', utcExpiresAt: held.utcExpiresAt });
    } finally {
      await t.close();
    }
  });
});
