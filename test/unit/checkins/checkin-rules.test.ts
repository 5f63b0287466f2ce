/**
 * Which guests a scan checks in (src/modules/checkins/checkin-rules.ts `pickGuests`), as pure
 * rules: a short code picks the day first, the confirmation second (docs/operations-day.md),
 * so an unconfirmed item of today is `409 item_not_confirmed` naming it, never a `wrong_day`
 * whose `force` would check in another day's guests.
 */
import { describe, expect, it } from 'vitest';
import { pickGuests, type Named } from '../../../src/modules/checkins/checkin-rules.js';
import { DomainError } from '../../../src/domain/errors.js';
import type { GuestRecord, OrderView } from '../../../src/modules/orders/index.js';

const NOW = new Date('2026-12-07T20:00:00Z');
const TODAY = '2026-12-07';
const TOMORROW = '2026-12-08';
const id = (n: number) => n.toString(16).padStart(24, '0');

interface Item {
  n: number;
  status: number;
  arrival: string;
  seats?: number;
  arrived?: number;
}

/** An order (UTC departures) of `items`, each with its guests; only what the rules read. */
function orderOf(items: Item[]) {
  const order = {
    id: id(1),
    holdExpiresAt: items.some((i) => i.status === 103) ? '2026-12-08T00:00:00Z' : null,
    items: items.map((i) => ({
      id: id(100 + i.n),
      status: i.status,
      arrival: i.arrival,
      arrivalTime: 900,
      event: { id: id(200 + i.n) },
    })),
  } as unknown as OrderView;
  const guests: GuestRecord[] = items.flatMap((i) =>
    Array.from({ length: i.seats ?? 2 }, (_, seat) => ({
      id: id(1000 + i.n * 10 + seat),
      orderId: id(1),
      itemId: id(100 + i.n),
      eventId: id(200 + i.n),
      sellerId: id(2),
      demographicId: null,
      ticketCode: 'e'.repeat(32),
      guestStatus: seat < (i.arrived ?? 0) ? 'arrived' : 'pending',
      checkedInAt: seat < (i.arrived ?? 0) ? new Date('2026-12-07T19:00:00Z') : null,
      checkedInBy: null,
      position: seat,
      createdAt: NOW,
      canceledAt: null,
    })),
  );
  const timezones = new Map(order.items.map((i) => [i.id, 'UTC']));
  return { order, guests, timezones };
}

const pick = (items: Item[], named: Partial<Named> = {}, force = false) => {
  const { order, guests, timezones } = orderOf(items);
  return pickGuests({ kind: 'order', id: id(1), ...named }, order, timezones, guests, {
    now: NOW,
    force,
  });
};

/** The refusal `pick` throws: its code and extra members. */
function refusal(run: () => unknown): { code: string; extra: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, extra: error.extra };
    throw error;
  }
  throw new Error('expected a refusal');
}

const itemsOf = (picked: ReturnType<typeof pick>) =>
  'guests' in picked ? picked.guests.map((g) => g.itemId) : picked;

describe('pickGuests: a short code picks the day, then the confirmation', () => {
  for (const status of [103, 100]) {
    it(`refuses an unconfirmed item (${status}) of today, not sending the dock to tomorrow's`, () => {
      const items = [
        { n: 1, status, arrival: TODAY },
        { n: 2, status: 200, arrival: TOMORROW },
      ];
      expect(refusal(() => pick(items))).toEqual({
        code: 'item_not_confirmed',
        extra: { items: [{ id: id(101), status }] },
      });
      // Forced, the other days' confirmed guests come in (a late entry), as before.
      expect(itemsOf(pick(items, {}, true))).toEqual([id(102), id(102)]);
    });
  }

  it("checks in today's confirmed guests and leaves today's held ones waiting", () => {
    const items = [
      { n: 1, status: 200, arrival: TODAY },
      { n: 2, status: 103, arrival: TODAY },
      { n: 3, status: 200, arrival: TOMORROW },
    ];
    expect(itemsOf(pick(items))).toEqual([id(101), id(101)]);
  });

  it("answers wrong_day only when nobody waits on today's departures, naming the confirmed", () => {
    const other = refusal(() =>
      pick([
        { n: 2, status: 103, arrival: TOMORROW },
        { n: 3, status: 200, arrival: TOMORROW },
      ]),
    );
    expect(other.code).toBe('wrong_day');
    expect(other.extra.departures).toEqual([
      { event: { id: id(203) }, arrival: TOMORROW, arrivalTime: 900 },
    ]);
  });

  it('refuses other days whose items are all unconfirmed as not confirmed (force would not help)', () => {
    expect(refusal(() => pick([{ n: 1, status: 100, arrival: TOMORROW }])).code).toBe(
      'item_not_confirmed',
    );
  });

  it("tells who is in when today's guests all arrived, whatever waits on other days", () => {
    const picked = pick([
      { n: 1, status: 200, arrival: TODAY, arrived: 2 },
      { n: 2, status: 103, arrival: TOMORROW },
    ]);
    expect(picked).toMatchObject({ alreadyIn: { itemId: id(101) } });
  });
});

describe('pickGuests: a ticket names its own guests', () => {
  it('refuses an unconfirmed item first (force cannot lift it), then another day', () => {
    const held = [{ n: 1, status: 103, arrival: TOMORROW }];
    expect(refusal(() => pick(held, { kind: 'item', id: id(101) })).code).toBe(
      'item_not_confirmed',
    );
    const confirmed = [{ n: 1, status: 200, arrival: TOMORROW }];
    expect(refusal(() => pick(confirmed, { kind: 'guest', id: id(1010) })).code).toBe('wrong_day');
    expect(itemsOf(pick(confirmed, { kind: 'guest', id: id(1010) }, true))).toEqual([id(101)]);
  });
});
