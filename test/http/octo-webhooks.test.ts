/**
 * OCTo's webhooks (octo/webhooks) to real receivers: a reseller registers booking_update
 * and availability_update; its own booking's confirmation and cancellation arrive as
 * `{webhook, booking}` (an OCTo booking, checked against the specification), signed with the
 * secret it was given, through the hooks module's dispatcher; a departure's seats changing
 * arrives as `{webhook, productId, availability}`. Another reseller's bookings never reach
 * it; the seller's own hook list does not show it; a URL the SSRF guard refuses is
 * BAD_REQUEST; revoking the credential removes its webhooks, even one whose creation was
 * waiting on its URL's name lookup then, and a revoked credential's hook hears nothing. A
 * hook disabled after failing deliveries shows DISABLED, is enabled again by registering it
 * again (a new secret), and the seller's email about it has neither its URL nor the API's
 * enable call.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../src/mail/dispatcher.js';
import { configuredCipher } from '../../src/security/secret.js';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import { holdLookup } from '../helpers/held-lookups.js';
import { freePort, parseMail, startSmtpServer } from '../mail/smtp.js';
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

// A URL under /held waits in its creation's name check until the test lets it go on.
vi.mock('../../src/modules/hooks/destination.js', async (importOriginal) =>
  (await import('../helpers/held-lookups.js')).withHeldLookups(await importOriginal()),
);

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

  it('removes a webhook whose creation was waiting on its name lookup when the credential was revoked', async () => {
    const leaving = await createAffiliate(t.app, shop.seller, { name: 'Leaving' });
    const lookup = holdLookup();
    const creating = send(
      'POST',
      '/webhooks',
      { url: receiver.url('/held/revoked'), event: 'booking_update' },
      leaving.apiKey,
    );
    await lookup.reached;
    const revoked = await as(t.app, shop.seller, {
      method: 'DELETE',
      url: `/api/users/${shop.seller.id}/affiliates/${leaving.id}`,
    });
    expect(revoked.statusCode).toBe(204);
    lookup.release();
    expectOctoError(await creating, 'FORBIDDEN');
    const left = await t.database.db
      .selectFrom('hooks')
      .select('id')
      .where('reseller_id', '=', leaving.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('sends nothing to a hook of a revoked credential', async () => {
    const gone = await createAffiliate(t.app, shop.seller, { name: 'Gone behind our back' });
    const live = await createAffiliate(t.app, shop.seller, { name: 'Live' });
    for (const [key, path] of [
      [gone.apiKey, '/octo/gone-seats'],
      [live.apiKey, '/octo/live-seats'],
    ] as const) {
      const made = await send(
        'POST',
        '/webhooks',
        { url: receiver.url(path), event: 'availability_update' },
        key,
      );
      expect(made.statusCode, made.body).toBe(200);
    }
    // Revoked without the revocation's cleanup (as a hook could once outlive it).
    await t.database.db
      .updateTable('reseller_credentials')
      .set({ revoked_at: new Date() })
      .where('id', '=', gone.id)
      .execute();
    await reserve(live.apiKey, 'LIVE-1');
    await receiver.waitFor((all) => all.some((r) => r.path === '/octo/live-seats'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received.filter((r) => r.path === '/octo/gone-seats')).toEqual([]);
  });

  it('shows a hook disabled after failing deliveries, enables it again on a second POST, and tells the seller without its URL', async () => {
    const flaky = await createAffiliate(t.app, shop.seller, { name: 'Flaky Partner' });
    const path = '/octo/flaky-seats';
    receiver.answer((r) => ({ status: r.path === path ? 500 : 204 }));
    const body = { url: receiver.url(path), event: 'availability_update' };
    const created = await send('POST', '/webhooks', body, flaky.apiKey);
    expect(created.json()).toMatchObject({ status: 'ENABLED' });
    await reserve(flaky.apiKey, 'FLAKY-1');
    const status = async () =>
      (await send('GET', '/webhooks', undefined, flaky.apiKey)).json<{ status: string }[]>()[0]
        ?.status;
    await expect.poll(status, { timeout: 15_000 }).toBe('DISABLED');

    // The seller is told, in its own terms: the reseller's URL and the API's enable call,
    // which does not reach this hook, are not in it.
    const smtp = await startSmtpServer(await freePort());
    const mail = createDispatcher({
      db: t.database.db,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'Bookings <bookings@example.test>',
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      cipher: configuredCipher(t.config),
      retryBaseMs: 10,
    });
    try {
      while ((await mail.runOnce()) > 0);
    } finally {
      await mail.stop();
      await smtp.close();
    }
    const notices = smtp.received
      .map((m) => ({ to: m.rcptTo, ...parseMail(m.raw) }))
      .filter((m) => m.headers.get('subject')?.startsWith('Webhook disabled'));
    // At least one (two deliveries failing together may each tell: review-octo finding 7).
    expect(notices.length).toBeGreaterThan(0);
    for (const notice of notices) {
      expect(notice.to).toEqual([shop.seller.email]);
      const text = notice.parts.get('text/plain')!;
      expect(text).toContain('Flaky Partner');
      expect(text).toContain('POST /octo/webhooks');
      expect(text).not.toContain(path);
      expect(text).not.toContain('/enable');
    }

    // Registered again: the same hook, enabled, with a new secret that signs what follows.
    receiver.answer(() => ({ status: 204 }));
    const again = await send('POST', '/webhooks', body, flaky.apiKey);
    expect(again.statusCode, again.body).toBe(200);
    const hook = again.json();
    expect(hook).toMatchObject({ id: created.json().id, status: 'ENABLED' });
    expect(hook.secret).not.toBe(created.json().secret);
    expect(await status()).toBe('ENABLED');
    expectOctoError(await send('POST', '/webhooks', body, flaky.apiKey), 'BAD_REQUEST');
    const before = receiver.received.length;
    await reserve(flaky.apiKey, 'FLAKY-2');
    const [delivery] = (
      await receiver.waitFor((all) => all.slice(before).some((r) => r.path === path))
    )
      .slice(before)
      .filter((r) => r.path === path);
    expect(new Webhook(hook.secret).verify(delivery!.body, delivery!.headers)).toBeTruthy();
  });
});
