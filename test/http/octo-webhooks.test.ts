/**
 * OCTo's webhooks (octo/webhooks) to real receivers: a reseller registers booking_update
 * and availability_update; its own booking's confirmation and cancellation arrive as
 * `{webhook, booking}` (an OCTo booking, checked against the specification), signed with the
 * secret it was given, through the hooks module's dispatcher; a departure's seats changing
 * arrives as `{webhook, productId, availability}`. Another reseller's bookings never reach
 * it; the seller's own hook list does not show it; a URL the SSRF guard refuses is
 * BAD_REQUEST; revoking the credential removes its webhooks.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import {
  createAffiliate,
  expectOctoError,
  expectSpec,
  octo,
  openOctoShop,
  today,
  type OctoShop,
} from '../helpers/octo.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let t: TestApp;
let shop: OctoShop;
let receiver: Receiver;
let other: { id: string; apiKey: string };
beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '25',
    WEBHOOK_TIMEOUT_MS: '400',
    WEBHOOK_RETRY_SCHEDULE_MS: '50,50',
  });
  shop = await openOctoShop(t.app);
  other = await createAffiliate(t.app, shop.seller, { name: 'Tiqets' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const send = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, key?: string) =>
  octo(t.app, key ?? shop.reseller.apiKey, method, url, body);

async function reserve(key: string, reference: string) {
  const [departure] = (
    await send(
      'POST',
      '/availability',
      { productId: shop.tour, optionId: 'DEFAULT', localDate: today(4) },
      key,
    )
  ).json<{ id: string }[]>();
  const booking = await send(
    'POST',
    '/bookings',
    {
      productId: shop.tour,
      optionId: 'DEFAULT',
      availabilityId: departure!.id,
      resellerReference: reference,
      unitItems: [{ unitId: shop.adult }],
    },
    key,
  );
  expect(booking.statusCode, booking.body).toBe(200);
  return booking.json<{ uuid: string; id: string }>();
}

describe('OCTo webhooks', () => {
  it('delivers a reseller’s own booking updates and availability updates, signed', async () => {
    const created = await send('POST', '/webhooks', {
      url: receiver.url('/octo/booking'),
      event: 'booking_update',
    });
    expect(created.statusCode, created.body).toBe(200);
    const hook = created.json();
    expect(hook).toMatchObject({ event: 'booking_update', useContactLanguage: false });
    expect(hook.secret).toMatch(/^whsec_/);
    const availabilityHook = (
      await send('POST', '/webhooks', {
        url: receiver.url('/octo/seats'),
        event: 'availability_update',
      })
    ).json();
    expect((await send('GET', '/webhooks')).json().map((h: { id: string }) => h.id)).toEqual([
      hook.id,
      availabilityHook.id,
    ]);
    // The seller's own hooks are its own.
    const sellerHooks = await as(t.app, shop.seller, {
      method: 'GET',
      url: `/api/users/${shop.seller.id}/hooks`,
    });
    expect(sellerHooks.json().data).toEqual([]);

    const mine = await reserve(shop.reseller.apiKey, 'MINE-1');
    const theirs = await reserve(other.apiKey, 'THEIRS-1');
    await send('POST', `/bookings/${mine.uuid}/confirm`, { contact: { fullName: 'Ann Lee' } });
    await send('POST', `/bookings/${theirs.uuid}/confirm`, { contact: {} }, other.apiKey);
    await send('POST', `/bookings/${mine.uuid}/cancel`, { reason: 'rain' });

    const bookingCalls = (all: typeof receiver.received) =>
      all.filter((r) => r.path === '/octo/booking');
    const received = bookingCalls(await receiver.waitFor((all) => bookingCalls(all).length >= 2));
    const bodies = received.map(
      (r) => r.json as unknown as { webhook: object; booking: Record<string, unknown> },
    );
    for (const body of bodies) {
      expect(body.webhook).toEqual({ id: hook.id, event: 'booking_update', url: hook.url });
      expectSpec('Bookings_GetBooking', body.booking);
      expect(body.booking.uuid).toBe(mine.uuid);
    }
    expect(bodies.map((b) => b.booking.status)).toContain('CANCELLED');
    const [first] = received;
    const verified = new Webhook(hook.secret).verify(first!.body, first!.headers);
    expect(verified).toBeTruthy();

    const seats = await receiver.waitFor((all) => all.some((r) => r.path === '/octo/seats'));
    const update = seats.find((r) => r.path === '/octo/seats')!.json as unknown as Record<
      string,
      unknown
    >;
    expect(update).toMatchObject({
      webhook: { id: availabilityHook.id, event: 'availability_update' },
      productId: shop.tour,
      optionId: 'DEFAULT',
    });
    expect(update.availability).toMatchObject({
      id: expect.any(String),
      status: expect.any(String),
    });
    // Nothing of the other reseller's booking reached this one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.some((r) => r.body.includes(theirs.uuid))).toBe(false);
  });

  it('refuses what the SSRF guard refuses, and ends with the credential', async () => {
    expectOctoError(
      await send('POST', '/webhooks', { url: 'ftp://example.com/x', event: 'booking_update' }),
      'BAD_REQUEST',
    );
    expectOctoError(
      await send(
        'POST',
        '/webhooks',
        { url: receiver.url('/x'), event: 'booking_update' },
        shop.seller.apiKey,
      ),
      'FORBIDDEN',
    );
    const revoked = await createAffiliate(t.app, shop.seller, { name: 'Gone' });
    await send(
      'POST',
      '/webhooks',
      { url: receiver.url('/gone'), event: 'booking_update' },
      revoked.apiKey,
    );
    await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/users/${shop.seller.id}/affiliates/${revoked.id}`,
    });
    const left = await t.database.db
      .selectFrom('hooks')
      .select('id')
      .where('reseller_id', '=', revoked.id)
      .execute();
    expect(left).toEqual([]);
  });
});
