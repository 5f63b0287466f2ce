/**
 * Orders under concurrency, on whichever database the suite runs on (on PostgreSQL the
 * requests really race on a pool of connections; on the embedded database they interleave
 * between statements):
 * - changes moving guests into a departure race bookings for it: never more seats than it
 *   has, every event's reserved count equal to the seats its live items hold, all or nothing;
 * - 10,000 concurrent bookings get 10,000 distinct short codes and 10,000 distinct ticket
 *   codes (the unique indexes would refuse a duplicate; a collision is retried).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { runPool } from '../helpers/pool.js';

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app, { group: { outingMax: 10 } });
});
afterAll(async () => t.close());

const statuses = (responses: LightMyRequestResponse[]) =>
  responses.reduce<Record<string, number>>((tally, r) => {
    const key = r.statusCode < 400 ? String(r.statusCode) : `${r.statusCode} ${r.json().code}`;
    tally[key] = (tally[key] ?? 0) + 1;
    return tally;
  }, {});

/** Events whose reserved count is not the seats their live items hold, or above max. */
async function unbalancedEvents() {
  const rows = await t.database.db
    .selectFrom('events as e')
    .leftJoin('order_items as i', (join) =>
      join.onRef('i.event_id', '=', 'e.id').on('i.status', '<', 300),
    )
    .select((eb) => [
      'e.id',
      'e.max',
      'e.reserved',
      eb.fn.coalesce(eb.fn.sum<number>('i.quantity'), eb.lit(0)).as('held'),
    ])
    .groupBy('e.id')
    .execute();
  return rows.filter(
    (r) => Number(r.held) !== r.reserved || (r.max !== null && r.reserved > r.max),
  );
}

describe('changes racing bookings', () => {
  it('never oversells a departure that changes and bookings both fill', async () => {
    const customers: Account[] = [];
    for (let i = 0; i < 25; i++) customers.push(await signUp(t.app));
    // Five orders of two seats fill 09:00 (ten seats); each is to move to 14:00 (ten) ...
    const orders: { customer: Account; order: { id: string; items: { id: string }[] } }[] = [];
    for (const customer of customers.slice(0, 5)) {
      const booked = await book(t.app, customer, {
        items: [item(shop.experienceId, '2030-10-01', 900, 2)],
      });
      expect(booked.statusCode).toBe(201);
      orders.push({ customer, order: booked.json() });
    }
    // ... while twenty customers book 14:00 one seat each, the two kinds interleaved.
    const move =
      ({ customer, order }: (typeof orders)[number]) =>
      () =>
        as(t.app, customer, {
          method: 'PATCH',
          url: `/api/orders/${order.id}`,
          payload: {
            items: [{ ...item(shop.experienceId, '2030-10-01', 1400, 2), id: order.items[0]!.id }],
          },
        });
    const tasks: (() => Promise<LightMyRequestResponse>)[] = [];
    customers.slice(5).forEach((customer, i) => {
      tasks.push(() =>
        book(t.app, customer, { items: [item(shop.experienceId, '2030-10-01', 1400, 1)] }),
      );
      if (i < orders.length) tasks.push(move(orders[i]!));
    });
    const responses = await runPool(tasks, 16);
    const tally = statuses(responses);
    // Only successes and capacity refusals: no deadlock, no 5xx.
    const expected = ['200', '201', '409 capacity_exceeded'];
    expect(
      Object.keys(tally).filter((k) => !expected.includes(k)),
      JSON.stringify(tally),
    ).toEqual([]);
    const afternoon = await t.database.db
      .selectFrom('events')
      .select('reserved')
      .where('experience_id', '=', shop.experienceId)
      .where('starts_at', '=', new Date('2030-10-01T12:00:00Z'))
      .executeTakeFirstOrThrow();
    expect(afternoon.reserved).toBe(10);
    expect(afternoon.reserved).toBe(2 * (tally['200'] ?? 0) + (tally['201'] ?? 0));
    expect(await unbalancedEvents()).toEqual([]);
  });
});

describe('booking codes', () => {
  it('gives 10,000 concurrent bookings distinct short and ticket codes', async () => {
    const guest = await signUp(t.app);
    const big = await openShop(t.app, { group: { outingMax: null } });
    const days = Array.from({ length: 100 }, (_, d) =>
      new Date(Date.UTC(2031, 0, 1 + d)).toISOString().slice(0, 10),
    );
    const tasks = Array.from(
      { length: 10_000 },
      (_, i) => () =>
        book(t.app, guest, { items: [item(big.experienceId, days[i % days.length], 900, 1)] }),
    );
    const responses = await runPool(tasks, 32);
    expect(statuses(responses)).toEqual({ 201: 10_000 });
    const orders = responses.map((r) =>
      r.json<{ shortCode: string; items: { ticketCode: string }[] }>(),
    );
    expect(new Set(orders.map((o) => o.shortCode)).size).toBe(10_000);
    expect(new Set(orders.map((o) => o.items[0]!.ticketCode)).size).toBe(10_000);
    for (const order of orders.slice(0, 100))
      expect(order.shortCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{8}$/);
  }, 300_000);
});
