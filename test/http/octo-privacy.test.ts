/**
 * A reseller sees nothing of another reseller's bookings, nor of another seller's products
 * or its own seller's hidden ones (issue 25), whatever it asks: every OCTo request naming a
 * victim's booking (by uuid, reseller reference, supplier reference, local date) or product
 * answers exactly as the same request naming nothing that exists, and no victim's
 * identifier appears in the answer. The victims: another reseller of the same seller, a
 * reseller of another seller, and the seller's own key. A property test (fast-check) over
 * probes and victims; the victims' bookings are unchanged afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.js';
import {
  createAffiliate,
  createExperience,
  octo,
  openOctoShop,
  today,
  type OctoShop,
} from '../helpers/octo.js';

let t: TestApp;
let home: OctoShop;
let other: OctoShop;
let prober: string;

interface Victim {
  label: string;
  uuid: string;
  reference: string;
  shortCode: string;
  date: string;
  productId: string;
}
const victims: Victim[] = [];
/** Ids and texts no booking or product has (each probe's control). */
const GHOST = {
  uuid: '0f0e0d0c-0b0a-4908-8706-050403020100',
  reference: 'GHOST-REF-1',
  shortCode: 'ZZZZZZZZ',
  date: today(200),
  productId: 'ffffffff0123456789abcdef',
};

async function bookAs(key: string, shop: OctoShop, productId: string, reference: string) {
  const [departure] = (
    await octo(t.app, key, 'POST', '/availability', {
      productId,
      optionId: 'DEFAULT',
      localDate: today(3),
    })
  ).json<{ id: string }[]>();
  const booking = await octo(t.app, key, 'POST', '/bookings', {
    productId,
    optionId: 'DEFAULT',
    availabilityId: departure!.id,
    resellerReference: reference,
    unitItems: [{ unitId: productId === shop.tour ? shop.adult : 'adult' }],
  });
  expect(booking.statusCode, booking.body).toBe(200);
  const body = booking.json();
  return {
    uuid: body.uuid as string,
    shortCode: body.supplierReference as string,
    date: departure!.id.slice(0, 10),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  home = await openOctoShop(t.app);
  other = await openOctoShop(t.app);
  prober = home.reseller.apiKey;
  const sibling = await createAffiliate(t.app, home.seller, { name: 'Tiqets' });
  const hidden = await createExperience(t.app, home.seller, { name: 'Private', visible: false });
  // Each victim's booking, and a product the prober may not see (the seller's hidden one,
  // or another seller's).
  for (const [label, key, shop, product, unseen] of [
    ['a sibling reseller', sibling.apiKey, home, home.kayak, hidden.id],
    ['another seller’s reseller', other.reseller.apiKey, other, other.tour, other.kayak],
    ['the seller’s own key', home.seller.apiKey, home, home.tour, hidden.id],
  ] as const) {
    const reference = `SECRET-${victims.length}`;
    const booked = await bookAs(key, shop, product, reference);
    victims.push({ label, reference, productId: unseen, ...booked });
  }
});
afterAll(async () => t.close());

type Target = Omit<Victim, 'label'>;

/** The requests a curious reseller may send about a target. */
const probes: Record<string, (target: Target) => [string, string, unknown?]> = {
  get: (x) => ['GET', `/bookings/${x.uuid}`],
  byReference: (x) => ['GET', `/bookings?resellerReference=${x.reference}`],
  bySupplierReference: (x) => ['GET', `/bookings?supplierReference=${x.shortCode}`],
  byDate: (x) => ['GET', `/bookings?localDate=${x.date}`],
  confirm: (x) => ['POST', `/bookings/${x.uuid}/confirm`, { contact: { fullName: 'Eve' } }],
  extend: (x) => ['POST', `/bookings/${x.uuid}/extend`, { expirationMinutes: 60 }],
  cancel: (x) => ['POST', `/bookings/${x.uuid}/cancel`, { reason: 'mine now' }],
  delete: (x) => ['DELETE', `/bookings/${x.uuid}`],
  update: (x) => ['PATCH', `/bookings/${x.uuid}`, { notes: 'hello' }],
  product: (x) => ['GET', `/products/${x.productId}`],
  calendar: (x) => [
    'POST',
    '/availability/calendar',
    {
      productId: x.productId,
      optionId: 'DEFAULT',
      localDateStart: today(1),
      localDateEnd: today(5),
    },
  ],
  availability: (x) => [
    'POST',
    '/availability',
    { productId: x.productId, optionId: 'DEFAULT', localDate: today(3) },
  ],
  reserve: (x) => [
    'POST',
    '/bookings',
    {
      productId: x.productId,
      optionId: 'DEFAULT',
      availabilityId: `${today(3)}T09:00:00+02:00`,
      unitItems: [{ unitId: 'adult' }],
    },
  ],
};

/** The answer with the target's texts replaced by placeholders. */
const masked = (body: string, target: Target) =>
  Object.entries(target).reduce(
    (text, [field, value]) => text.split(String(value)).join(`<${field}>`),
    body,
  );

describe('what a reseller can learn of others', () => {
  it('answers every probe about a victim exactly as about nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(probes)),
        fc.constantFrom(...victims),
        async (name, victim) => {
          const ask = async (target: Target) => {
            const [method, url, body] = probes[name]!(target);
            const response = await octo(t.app, prober, method as 'GET', url, body);
            return { status: response.statusCode, body: masked(response.body, target) };
          };
          const { label: _label, ...target } = victim;
          const [seen, control] = [await ask(target), await ask(GHOST)];
          expect(seen, `${name} about ${victim.label}`).toEqual(control);
          for (const secret of [victim.uuid, victim.reference, victim.shortCode])
            expect(seen.body).not.toContain(secret);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('left every victim’s booking as it was', async () => {
    for (const victim of victims.slice(0, 3)) {
      const order = await t.database.db
        .selectFrom('orders')
        .select(['status', 'notes'])
        .where('short_code', '=', victim.shortCode)
        .executeTakeFirstOrThrow();
      expect(order).toEqual({ status: 'confirmed', notes: [] });
    }
    const seen = await as(t.app, home.seller, { method: 'GET', url: '/api/orders' });
    expect(seen.statusCode).toBe(200);
  });
});
