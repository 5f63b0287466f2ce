/**
 * Booking edges (issue 10, item 7): group limits per departure across an order's items,
 * idempotency that compares bodies canonically and replays the recorded answer, a cap on
 * confirmations a customer account can send to others, and Idempotency-Key on every POST
 * that creates something, sign-up included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  uniqueEmail,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import { book, item, openShop, seatsReserved, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let customer: Account;
beforeAll(async () => {
  t = await createTestApp({ CONFIRMATIONS_TO_OTHERS_PER_HOUR: '2' });
  shop = await openShop(t.app, { group: { outingMax: 50, orderMax: 4, orderMin: 2 } });
  customer = await signUp(t.app, { name: 'Cleo Customer' });
});
afterAll(async () => t.close());

const count = async (
  table: 'orders' | 'users' | 'experiences' | 'guides' | 'delegates' | 'events',
) =>
  Number(
    (
      await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The accounts stored with this email. */
const accountsWith = (email: string) =>
  t.database.db.selectFrom('users').select('id').where('email', '=', email).execute();

describe('group limits hold per departure, across the items of an order', () => {
  it('refuses 3 items of 2 seats on one departure when orderMax is 4, and books nothing', async () => {
    const before = await count('orders');
    const refused = await book(t.app, customer, {
      items: [1, 2, 3].map(() => item(shop.experienceId, '2030-07-01', 900, 2)),
    });
    expect(expectProblem(refused, 400, 'validation_failed').detail).toMatch(
      /at most 4 seats .*per departure/,
    );
    expect(await count('orders')).toBe(before);
    // Two seats on each of two departures is fine; so is 4 over two items of one departure.
    const spread = await book(t.app, customer, {
      items: [
        item(shop.experienceId, '2030-07-01', 900, 2),
        item(shop.experienceId, '2030-07-01', 1400, 2),
      ],
    });
    expect(spread.statusCode, spread.body).toBe(201);
    const split = await book(t.app, customer, {
      items: [
        item(shop.experienceId, '2030-07-02', 900, 2),
        item(shop.experienceId, '2030-07-02', 900, 2),
      ],
    });
    expect(split.statusCode, split.body).toBe(201);
  });

  it('applies orderMin to the departure’s total too', async () => {
    const one = await book(t.app, customer, {
      items: [item(shop.experienceId, '2030-07-03', 900, 1)],
    });
    expectProblem(one, 400, 'validation_failed');
    const together = await book(t.app, customer, {
      items: [
        item(shop.experienceId, '2030-07-03', 900, 1),
        item(shop.experienceId, '2030-07-03', 900, 1),
      ],
    });
    expect(together.statusCode, together.body).toBe(201);
  });
});

describe('a change of an order counts every seat the order keeps on a departure', () => {
  const change = (id: string, items: object[]) =>
    as(t.app, customer, { method: 'PATCH', url: `/api/orders/${id}`, payload: { items } });
  const kept = (order: { items: { id: string }[] }, i: number, quantity: number) => ({
    ...item(shop.experienceId, '2030-07-10', 900, quantity),
    id: order.items[i]!.id,
  });
  const seatsOn = (eventId: string) => seatsReserved(t.database.db, eventId);

  it('refuses adding seats to a departure the order already holds at orderMax', async () => {
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-07-10', 900, 4)] })
    ).json();
    const eventId = order.items[0].event.id;
    const added = await change(order.id, [
      kept(order, 0, 4),
      item(shop.experienceId, '2030-07-10', 900, 4),
    ]);
    expect(expectProblem(added, 400, 'validation_failed').detail).toMatch(
      /at most 4 seats .*per departure \(this order asks 8\)/,
    );
    expect(expectProblem(added, 400, 'validation_failed').errors?.[0]?.name).toBe(
      'items.1.quantity',
    );
    expect(await seatsOn(eventId)).toBe(4);
    // Another departure is another group; a dropped item's seats no longer count.
    const elsewhere = await change(order.id, [
      kept(order, 0, 4),
      item(shop.experienceId, '2030-07-10', 1400, 4),
    ]);
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const replaced = await change(order.id, [item(shop.experienceId, '2030-07-10', 900, 4)]);
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await seatsOn(eventId)).toBe(4);
  });

  it('refuses resizing one item past orderMax beside another kept as it is', async () => {
    const order = (
      await book(t.app, customer, {
        items: [1, 2].map(() => item(shop.experienceId, '2030-07-11', 900, 2)),
      })
    ).json();
    const resized = await change(order.id, [
      { ...item(shop.experienceId, '2030-07-11', 900, 2), id: order.items[0].id },
      { ...item(shop.experienceId, '2030-07-11', 900, 3), id: order.items[1].id },
    ]);
    expectProblem(resized, 400, 'validation_failed');
    expect(await seatsOn(order.items[0].event.id)).toBe(4);
  });

  it('counts kept seats towards orderMin as a booking does', async () => {
    const order = (
      await book(t.app, customer, { items: [item(shop.experienceId, '2030-07-12', 900, 2)] })
    ).json();
    const added = await change(order.id, [
      { ...item(shop.experienceId, '2030-07-12', 900, 2), id: order.items[0].id },
      item(shop.experienceId, '2030-07-12', 900, 1),
    ]);
    expect(added.statusCode, added.body).toBe(200);
    expect(await seatsOn(order.items[0].event.id)).toBe(3);
  });
});

describe('Idempotency-Key', () => {
  const key = () => `key-${Math.random().toString(36).slice(2)}`;

  it('treats the same body with its keys in another order as the same request', async () => {
    const k = key();
    const body = `{"items":[{"experience":{"id":"${shop.experienceId}"},"arrival":"2030-07-04","arrivalTime":900,"quantity":2}]}`;
    const reordered = `{"items":[{"quantity":2,"arrivalTime":900,"arrival":"2030-07-04","experience":{"id":"${shop.experienceId}"}}]}`;
    const send = (payload: string) =>
      as(t.app, customer, {
        method: 'POST',
        url: '/api/orders',
        payload,
        headers: { 'content-type': 'application/json', 'idempotency-key': k },
      });
    const first = await send(body);
    expect(first.statusCode, first.body).toBe(201);
    const again = await send(reordered);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expectProblem(
      await send(body.replace('"quantity":2', '"quantity":3')),
      422,
      'idempotency_key_reused',
    );
  });

  it('replays the recorded answer, marked as a replay, even after the order changed', async () => {
    const k = key();
    const first = await book(
      t.app,
      customer,
      { items: [item(shop.experienceId, '2030-07-05', 900, 2)] },
      { 'idempotency-key': k },
    );
    expect(first.json().status).toBe('confirmed');
    await as(t.app, customer, { method: 'POST', url: `/api/orders/${first.json().id}/cancel` });
    const replay = await book(
      t.app,
      customer,
      { items: [item(shop.experienceId, '2030-07-05', 900, 2)] },
      { 'idempotency-key': k },
    );
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    // The order itself is what GET shows.
    const now = await as(t.app, customer, { method: 'GET', url: `/api/orders/${first.json().id}` });
    expect(now.json().status).toBe('canceled');
  });

  it('makes every POST that creates something answer once per key', async () => {
    const seller = shop.seller;
    const guide = await as(t.app, seller, {
      method: 'POST',
      url: `/api/sellers/${seller.id}/guides`,
      payload: { name: 'Gil' },
    });
    const invitee = await signUp(t.app);
    const creates: [string, Account, string, object, Parameters<typeof count>[0] | undefined][] = [
      [
        'experience',
        seller,
        '/api/experiences',
        { name: 'Twice', price: 1, priceType: 'person', currency: 'USD', duration: 30 },
        'experiences',
      ],
      ['guide', seller, `/api/sellers/${seller.id}/guides`, { name: 'Once' }, 'guides'],
      [
        'guide schedule',
        seller,
        `/api/sellers/${seller.id}/guides/${guide.json().id}/schedules`,
        { type: 'available', repeat: 'weekly', days: [1] },
        undefined,
      ],
      [
        'delegate',
        seller,
        `/api/users/${seller.id}/delegates`,
        { email: invitee.email, roles: ['ROLE_GUIDE'] },
        'delegates',
      ],
      [
        'event',
        seller,
        '/api/events',
        { experience: { id: shop.experienceId }, start: '2030-07-06T09:00' },
        'events',
      ],
      [
        'order',
        customer,
        '/api/orders',
        { items: [item(shop.experienceId, '2030-07-07', 900, 2)] },
        'orders',
      ],
    ];
    for (const [what, account, url, payload, table] of creates) {
      const k = key();
      const before = table ? await count(table) : 0;
      const send = () =>
        as(t.app, account, { method: 'POST', url, payload, headers: { 'idempotency-key': k } });
      const first = await send();
      expect(first.statusCode, `${what}: ${first.body}`).toBe(201);
      const again = await send();
      expect(again.statusCode, what).toBe(201);
      expect(again.headers['idempotent-replayed'], what).toBe('true');
      expect(again.json(), what).toEqual(first.json());
      if (table) expect(await count(table), what).toBe(before + 1);
    }
  });

  it('answers a retried sign-up with the same account and its key, never storing the key', async () => {
    const k = key();
    const payload = {
      name: 'Retry Rita',
      email: uniqueEmail('rita'),
      password: 'long enough pass',
    };
    const signup = (headers: Record<string, string>, remoteAddress = '10.1.2.3') =>
      t.app.inject({ method: 'POST', url: '/api/users', payload, headers, remoteAddress });
    const first = await signup({ 'idempotency-key': k });
    expect(first.statusCode).toBe(201);
    const retried = await signup({ 'idempotency-key': k });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(first.json());
    const stored = await t.database.db
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', k)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.response_body)).not.toContain(first.json().apiKey);
    // Without the key, or from another address, it is a new sign-up: the email is taken.
    expectProblem(await signup({}), 409, 'email_taken');
    expectProblem(await signup({ 'idempotency-key': k }, '10.9.9.9'), 409, 'email_taken');
    expect(await accountsWith(payload.email)).toHaveLength(1);
  });

  it('replays a sign-up without its key once the key was rotated (the old request gets no new key)', async () => {
    const k = key();
    const payload = { name: 'Rotate Rob', email: uniqueEmail('rob'), password: 'long enough pass' };
    const signup = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload,
        headers: { 'idempotency-key': k },
        remoteAddress: '10.5.6.7',
      });
    const first = await signup();
    expect(first.statusCode, first.body).toBe(201);
    const { id, apiKey } = first.json<{ id: string; apiKey: string }>();
    // The owner changes its password (someone else had its credentials): the key rotates.
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${id}`,
      headers: { 'x-api-key': apiKey },
      payload: { password: 'a brand new passphrase', currentPassword: payload.password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const newKey = changed.json().apiKey as string;
    const replay = await signup();
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).not.toContain(newKey);
    const { apiKey: _first, ...account } = first.json<Record<string, unknown>>();
    expect(replay.json()).toEqual({ ...account, updatedAt: replay.json().updatedAt });
    expect(replay.json()).not.toHaveProperty('apiKey');
  });

  // On the embedded database the three are serialized; on PostgreSQL they truly race.
  it('makes one account of two identical sign-ups racing with one key', async () => {
    const k = key();
    const payload = { name: 'Race', email: uniqueEmail('race'), password: 'long enough pass' };
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users',
        payload,
        headers: { 'idempotency-key': k },
        remoteAddress: '10.4.4.4',
      });
    const replies = await Promise.all([send(), send(), send()]);
    for (const r of replies) expect([201, 409], r.body).toContain(r.statusCode);
    const created = replies.filter((r) => r.statusCode === 201);
    expect(new Set(created.map((r) => r.json().id)).size).toBe(1);
    for (const r of replies.filter((r) => r.statusCode === 409))
      expect(r.json().code).toBe('idempotency_in_progress');
    expect(await accountsWith(payload.email)).toHaveLength(1);
  });
});

describe('confirmations to others', () => {
  it('sends a customer account’s confirmations to other addresses only so many times an hour', async () => {
    const sender = await signUp(t.app, { name: 'Spammy' });
    const outbox = async () =>
      t.database.db
        .selectFrom('outbox')
        .select('recipient')
        .where('sender_id', '=', sender.id)
        .execute();
    for (let i = 0; i < 4; i++) {
      const booked = await book(t.app, sender, {
        customerName: 'Someone',
        customerEmail: `target${i}@example.com`,
        items: [item(shop.experienceId, '2030-07-08', 900, 2)],
      });
      expect(booked.statusCode, booked.body).toBe(201);
    }
    expect((await outbox()).map((r) => r.recipient)).toHaveLength(2);
    // Its own address is not capped; the seller's staff booking for customers is not either.
    const own = await book(t.app, sender, {
      items: [item(shop.experienceId, '2030-07-08', 900, 2)],
    });
    expect(own.statusCode).toBe(201);
    expect((await outbox()).map((r) => r.recipient)).toContain(sender.email);
    for (let i = 0; i < 3; i++) {
      await book(t.app, shop.seller, {
        customerName: 'Guest',
        customerEmail: `guest${i}@example.com`,
        items: [item(shop.experienceId, '2030-07-09', 900, 2)],
      });
    }
    // Confirmations only: the seller's invitation emails (an earlier test) are its own kind.
    const staffMail = await t.database.db
      .selectFrom('outbox')
      .select('recipient')
      .where('sender_id', '=', shop.seller.id)
      .where('kind', '=', 'order_confirmation')
      .execute();
    expect(staffMail).toHaveLength(3);
  });
});
