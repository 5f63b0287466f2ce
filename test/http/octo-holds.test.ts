/**
 * OCTo holds end at their deadline (docs/octo.md, "How bookings are made"): a confirmation
 * after the deadline is refused even before the sweeper has run (UNPROCESSABLE_ENTITY), and
 * once the hold sweeper released it the booking shows EXPIRED (its deadline as
 * utcExpiresAt, a cancellation), not CANCELLED.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { eventually } from '../helpers/eventually.js';
import { expectOctoError, expectSpec, octo, openOctoShop, today } from '../helpers/octo.js';

describe('holds that expire', () => {
  it('refuses to confirm a hold past its deadline, and shows it EXPIRED once swept', async () => {
    const swept = await createTestApp({ ORDER_HOLD_SWEEP: 'true', ORDER_HOLD_SWEEP_MS: '50' });
    try {
      const mine = await openOctoShop(swept.app);
      const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
        octo(swept.app, mine.reseller.apiKey, method, url, body);
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
          expirationMinutes: 5,
          unitItems: [{ unitId: mine.adult }],
        })
      ).json();
      expect(Date.parse(held.utcExpiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
      // Five minutes later, as far as the hold knows.
      await swept.database.db
        .updateTable('orders')
        .set({ hold_expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', held.id)
        .execute();
      expectOctoError(
        await call('POST', `/bookings/${held.uuid}/confirm`, { contact: { fullName: 'Late' } }),
        'UNPROCESSABLE_ENTITY',
      );
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
});
