/**
 * One departure booked at once through every face (DESIGN.md section 12: one seat-taking
 * path): Xola's POST /api/orders, OCTo's reserve then confirm, and the checkout widget's
 * guest booking with a publishable key, racing on a real PostgreSQL server. Never oversold:
 * exactly the seats there are are acknowledged, the rest refused (409 on the API, OCTo's
 * UNPROCESSABLE_ENTITY on /octo), no 5xx; every acknowledged booking is stored with its
 * seats, and the event's reserved count equals its confirmed seats.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { createAffiliate, octo } from '../helpers/octo.js';
import {
  FUTURE,
  book,
  createExperience,
  customers,
  inconsistentOrders,
  item,
  ledger,
  observe,
  runPool,
  unbalancedEvents,
  within,
  type Observer,
} from './booking-helpers.js';

const SEATS = 20;
const PER_FACE = 30;

let t: TestApp;
let observer: Observer;
let seller: Account;
let people: Account[];
let experienceId: string;
let resellerKey: string;
let publishableKey: string;

beforeAll(async () => {
  t = await createTestApp({ CHECKOUT_RATE_PER_KEY: '0', CHECKOUT_RATE_PER_ADDRESS: '0' });
  observer = await observe(t.database.db);
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  people = await customers(t.app, 6);
  experienceId = await createExperience(t.app, seller, { group: { outingMax: SEATS } });
  resellerKey = (await createAffiliate(t.app, seller)).apiKey;
  const key = await as(t.app, seller, {
    method: 'POST',
    url: `/api/sellers/${seller.id}/publishable-keys`,
    payload: { label: 'site' },
  });
  publishableKey = key.json().key;
});

afterAll(async () => {
  await observer?.close();
  await Promise.race([t?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
});

afterEach(async () => {
  expect(await unbalancedEvents(observer)).toEqual([]);
  expect(await inconsistentOrders(observer)).toEqual([]);
  const failures = t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  expect(failures).toEqual([]);
});

type Outcome = { face: string; response: LightMyRequestResponse; orderId?: string };

const viaApi = (i: number) => async (): Promise<Outcome> => {
  const response = await book(t.app, people[i % people.length]!, [item(experienceId)]);
  return { face: 'api', response, orderId: response.json<{ id?: string }>().id };
};

const viaCheckout = () => async (): Promise<Outcome> => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/orders',
    headers: { 'x-publishable-key': publishableKey },
    payload: {
      customerName: 'Gwen Guest',
      customerEmail: 'gwen@example.com',
      phone: '+33 6 12 34 56 78',
      items: [item(experienceId)],
    },
  });
  return { face: 'checkout', response, orderId: response.json<{ id?: string }>().id };
};

const viaOcto = () => async (): Promise<Outcome> => {
  const reserved = await octo(t.app, resellerKey, 'POST', '/bookings', {
    productId: experienceId,
    optionId: 'DEFAULT',
    availabilityId: `${FUTURE}T09:00:00Z`,
    unitItems: [{ unitId: 'adult' }],
  });
  if (reserved.statusCode !== 200) return { face: 'octo', response: reserved };
  const { uuid, id } = reserved.json<{ uuid: string; id: string }>();
  const confirmed = await octo(t.app, resellerKey, 'POST', `/bookings/${uuid}/confirm`, {
    contact: { fullName: 'Otto Reseller' },
  });
  return { face: 'octo', response: confirmed, orderId: id };
};

const acknowledged = (o: Outcome) =>
  o.face === 'octo' ? o.response.statusCode === 200 : o.response.statusCode === 201;

describe('one departure booked through every face at once', () => {
  it(
    `acknowledges exactly its ${SEATS} seats, stores each, refuses the rest`,
    { timeout: 90_000 },
    async () => {
      const tasks = Array.from({ length: PER_FACE }, (_, i) => [
        viaApi(i),
        viaCheckout(),
        viaOcto(),
      ]).flat();
      const outcomes = await within(observer, 'race', runPool(tasks, 24), 60_000);
      expect(outcomes.filter((o) => o.response.statusCode >= 500)).toEqual([]);
      const acked = outcomes.filter(acknowledged);
      expect(acked).toHaveLength(SEATS);
      for (const refused of outcomes.filter((o) => !acknowledged(o))) {
        if (refused.face === 'octo') {
          expect(refused.response.statusCode).toBe(400);
          expect(refused.response.json().error).toBe('UNPROCESSABLE_ENTITY');
        } else {
          expect(refused.response.statusCode).toBe(409);
          expect(refused.response.json().code).toBe('capacity_exceeded');
        }
      }
      // Each acknowledged booking is stored, its seat held on the one event.
      const stored = await observer.query<{ id: string; status: number; event_id: string }>(
        `select o.id, i.status, i.event_id from orders o join order_items i on i.order_id = o.id
         where o.id = any($1)`,
        [acked.map((o) => o.orderId)],
      );
      expect(stored).toHaveLength(SEATS);
      expect(stored.every((row) => row.status === 200)).toBe(true);
      const events = [...new Set(stored.map((row) => row.event_id))];
      expect(events).toHaveLength(1);
      const [event] = await ledger(observer, events);
      expect(event).toMatchObject({ max: SEATS, reserved: SEATS, confirmedSeats: SEATS });
      // eslint-disable-next-line no-console -- what each face won is the suite's report
      console.log(
        `[octo-concurrency] acknowledged by face: ${JSON.stringify(
          Object.fromEntries(
            ['api', 'checkout', 'octo'].map((f) => [f, acked.filter((o) => o.face === f).length]),
          ),
        )}`,
      );
    },
  );
});
