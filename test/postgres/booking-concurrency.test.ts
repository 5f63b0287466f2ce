/**
 * Capacity under concurrency on a real PostgreSQL server (DESIGN.md section 6, Order):
 * bookings and cancellations fired at the real app through HTTP (`app.inject`) run at
 * once on a pool of 10 server connections, so they really race in the database.
 *
 * - 60 concurrent first bookings of a departure without an event make one event and
 *   confirm exactly its 30 seats.
 * - 200 concurrent bookings for the last 10 seats confirm exactly 10; the other 190 are
 *   409 capacity_exceeded; the event's reserved count equals its confirmed items.
 * - Cancellations (and double cancels) mixed into a booking storm keep that invariant.
 * - Multi-item orders over the same events in opposite orders never deadlock into a 5xx
 *   and are all-or-nothing.
 * - Concurrent retries of one Idempotency-Key make one booking and answer with it.
 * - A throughput line (printed, never asserted: speed is measured in bench/).
 *
 * After every test the whole database is checked: every event's reserved count equals the
 * seats of its confirmed items and fits in max; every order's status matches its items.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';
import {
  FUTURE,
  book,
  cancel,
  createExperience,
  customers,
  deadlocks,
  inconsistentOrders,
  item,
  ledger,
  observe,
  report,
  runPool,
  serverErrors,
  tally,
  timed,
  unbalancedEvents,
  upsertEvent,
  within,
  type Item,
  type Observer,
} from './booking-helpers.js';

/** Each test's waves take about a second; these leave room for a loaded machine. */
const TEST_MS = 90_000;

let t: TestApp;
let observer: Observer;
let seller: Account;
let people: Account[];

beforeAll(async () => {
  t = await createTestApp();
  observer = await observe(t.database.db);
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  people = await customers(t.app, 8);
});

afterAll(async () => {
  await observer?.close();
  // An app whose requests are stuck never closes its pool; the run's teardown drops the
  // database anyway, so do not let that hide the test's own failure behind a hook timeout.
  await Promise.race([t?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
});

afterEach(async () => {
  expect(await unbalancedEvents(observer)).toEqual([]);
  expect(await inconsistentOrders(observer)).toEqual([]);
  const failures = t.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  expect(failures).toEqual([]);
});

const customerOf = (i: number) => people[i % people.length]!;

/** Fires a wave of requests and waits for all of them, failing with a reason if stuck. */
const wave = <T>(label: string, run: () => Promise<T>) =>
  timed(() => within(observer, label, run()));

/** A deterministic shuffle (so a failure reproduces with the same interleaving). */
function shuffled<T>(values: T[], seed: number): T[] {
  const out = [...values];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function confirmedOrdersOn(eventId: string): Promise<number> {
  const [row] = await observer.query<{ n: number }>(
    `select count(distinct o.id)::int as n from orders o join order_items i on i.order_id = o.id
     where i.event_id = $1 and o.status = 'confirmed'`,
    [eventId],
  );
  return row!.n;
}

async function ordersOf(customer: Account): Promise<string[]> {
  const rows = await observer.query<{ id: string }>(
    'select id from orders where customer_id = $1 order by id',
    [customer.id],
  );
  return rows.map((r) => r.id);
}

const withoutRequestId = (response: LightMyRequestResponse) => {
  const { requestId: _requestId, ...rest } = response.json();
  return rest;
};

describe('the first bookings of a departure', () => {
  it(
    'concurrent first bookings make one event and take its seats exactly, none lost to the race',
    async () => {
      // No event yet: each booking's one statement may make it, or lose the race to make it
      // and then find it (its snapshot cannot see the winner's row).
      const experienceId = await createExperience(t.app, seller, {
        name: 'First Departure',
        group: { outingMax: 30 },
      });
      const attempts = 60;
      const { result: responses } = await wave('first bookings', () =>
        Promise.all(
          Array.from({ length: attempts }, (_, i) =>
            book(t.app, customerOf(i), [item(experienceId, '2030-07-01')]),
          ),
        ),
      );
      expect(serverErrors(responses)).toEqual([]);
      expect(tally(responses)).toEqual({ '201': 30, '409 capacity_exceeded': 30 });
      const events = new Set(
        responses.filter((r) => r.statusCode === 201).map((r) => r.json().items[0].event.id),
      );
      expect(events.size).toBe(1);
      expect(await ledger(observer, [...events])).toEqual([
        expect.objectContaining({ max: 30, reserved: 30, confirmedSeats: 30 }),
      ]);
    },
    TEST_MS,
  );
});

describe('the last seats of an event', () => {
  it(
    '200 concurrent bookings for 10 seats left: exactly 10 succeed, 190 get 409',
    async () => {
      const experienceId = await createExperience(t.app, seller, { name: 'Last Ten Seats' });
      // 15 seats, 5 of them booked beforehand: 10 left.
      const event = await upsertEvent(t.app, seller, experienceId, 15);
      const first = await book(t.app, customerOf(0), [item(experienceId, FUTURE, 900, 5)]);
      expect(first.statusCode).toBe(201);
      expect(first.json().items[0].event.id).toBe(event.id);

      const attempts = 200;
      const { result: responses, ms } = await wave('last 10 seats', () =>
        Promise.all(
          Array.from({ length: attempts }, (_, i) =>
            book(t.app, customerOf(i), [item(experienceId)]),
          ),
        ),
      );
      const counts = tally(responses);
      report('last 10 seats', attempts, ms, counts);

      expect(serverErrors(responses)).toEqual([]);
      expect(counts).toEqual({ '201': 10, '409 capacity_exceeded': 190 });
      const confirmed = responses.filter((r) => r.statusCode === 201).map((r) => r.json());
      expect(new Set(confirmed.map((o) => o.id)).size).toBe(10);
      for (const order of confirmed) {
        expect(order.status).toBe('confirmed');
        expect(order.items).toHaveLength(1);
        expect(order.items[0]).toMatchObject({ event: { id: event.id }, quantity: 1, status: 200 });
      }
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        const problem = expectProblem(response, 409, 'capacity_exceeded');
        // Seats only ever go down here, so a refused booking saw the event full.
        expect(problem).toMatchObject({ item: 0, event: { id: event.id }, seatsLeft: 0 });
      }

      expect(await ledger(observer, [event.id])).toEqual([
        expect.objectContaining({ max: 15, reserved: 15, confirmedSeats: 15, confirmedItems: 11 }),
      ]);
      expect(await confirmedOrdersOn(event.id)).toBe(11);
      const view = await as(t.app, seller, { method: 'GET', url: `/api/events/${event.id}` });
      expect(view.json()).toMatchObject({ max: 15, quantity: { reserved: 15 }, open: 0 });
    },
    TEST_MS,
  );

  it(
    'mixed group sizes: the seats confirmed never exceed max and match the items',
    async () => {
      const experienceId = await createExperience(t.app, seller, { name: 'Mixed Groups' });
      const event = await upsertEvent(t.app, seller, experienceId, 25);
      const attempts = 300;
      const quantities = Array.from({ length: attempts }, (_, i) => 1 + (i % 3));
      const { result: responses, ms } = await wave('mixed group sizes', () =>
        Promise.all(
          quantities.map((quantity, i) =>
            book(t.app, customerOf(i), [item(experienceId, FUTURE, 900, quantity)]),
          ),
        ),
      );
      const counts = tally(responses);
      report('mixed group sizes (1-3 seats), 25 seats', attempts, ms, counts);

      expect(serverErrors(responses)).toEqual([]);
      expect(Object.keys(counts).sort()).toEqual(['201', '409 capacity_exceeded']);
      const seatsBooked = responses
        .map((r, i) => (r.statusCode === 201 ? quantities[i]! : 0))
        .reduce((a, b) => a + b, 0);
      const [after] = await ledger(observer, [event.id]);
      expect(after).toMatchObject({ reserved: seatsBooked, confirmedSeats: seatsBooked });
      expect(seatsBooked).toBeLessThanOrEqual(25);
      // Open seats only go down: each refusal saw fewer seats than it asked for, and at
      // least as many as are left at the end, which is also fewer than it asked for.
      for (const [i, response] of responses.entries()) {
        if (response.statusCode !== 409) continue;
        const problem = expectProblem(response, 409, 'capacity_exceeded');
        expect(problem.seatsLeft).toBeLessThan(quantities[i]!);
        expect(problem.seatsLeft).toBeGreaterThanOrEqual(25 - seatsBooked);
        expect(25 - seatsBooked).toBeLessThan(quantities[i]!);
      }
    },
    TEST_MS,
  );
});

describe('cancellations mixed into a booking storm', () => {
  it(
    'keep reserved equal to the confirmed items; each order cancels exactly once',
    async () => {
      const experienceId = await createExperience(t.app, seller, { name: 'Cancel Storm' });
      const max = 20;
      const event = await upsertEvent(t.app, seller, experienceId, max);
      // Fill the event: 20 orders of one seat.
      const { result: initial } = await wave('filling the event', () =>
        Promise.all(
          Array.from({ length: max }, (_, i) => book(t.app, customerOf(i), [item(experienceId)])),
        ),
      );
      expect(tally(initial)).toEqual({ '201': max });
      const existing = initial.map((r, i) => ({ id: r.json().id as string, owner: customerOf(i) }));

      type Outcome =
        | { kind: 'book'; response: LightMyRequestResponse }
        | { kind: 'cancel'; order: string; response: LightMyRequestResponse }
        | { kind: 'chain'; booked: LightMyRequestResponse; cancels: LightMyRequestResponse[] };
      const tasks: (() => Promise<Outcome>)[] = [];
      // Every existing order is canceled by its customer; half of them a second time (by
      // the seller or the customer again), racing the first cancel.
      for (const [i, order] of existing.entries()) {
        const cancelers =
          i % 2 === 0 ? [order.owner, i % 4 === 0 ? seller : order.owner] : [order.owner];
        for (const who of cancelers) {
          tasks.push(async () => ({
            kind: 'cancel',
            order: order.id,
            response: await cancel(t.app, who, order.id),
          }));
        }
      }
      // 150 plain bookings competing for the seats the cancels free.
      for (let i = 0; i < 150; i++) {
        tasks.push(async () => ({
          kind: 'book',
          response: await book(t.app, customerOf(i), [item(experienceId)]),
        }));
      }
      // 40 chains: book, and when that worked cancel the new order twice at once (by the
      // customer and by the seller).
      for (let i = 0; i < 40; i++) {
        tasks.push(async () => {
          const who = customerOf(i + 3);
          const booked = await book(t.app, who, [item(experienceId)]);
          if (booked.statusCode !== 201) return { kind: 'chain', booked, cancels: [] };
          const id = booked.json().id as string;
          const cancels = await Promise.all([cancel(t.app, who, id), cancel(t.app, seller, id)]);
          return { kind: 'chain', booked, cancels };
        });
      }

      const { result: outcomes, ms } = await wave('bookings and cancels', () =>
        Promise.all(shuffled(tasks, 7).map((task) => task())),
      );
      const all = outcomes.flatMap((o) =>
        o.kind === 'chain' ? [o.booked, ...o.cancels] : [o.response],
      );
      const counts = tally(all);
      report('bookings and cancels, 20 seats', all.length, ms, counts);
      expect(serverErrors(all)).toEqual([]);

      // Each order canceled exactly once: one 200, every other attempt 409 already_canceled.
      const cancelsOf = new Map<string, LightMyRequestResponse[]>();
      for (const outcome of outcomes) {
        if (outcome.kind === 'cancel') {
          cancelsOf.set(outcome.order, [...(cancelsOf.get(outcome.order) ?? []), outcome.response]);
        } else if (outcome.kind === 'chain' && outcome.cancels.length > 0) {
          cancelsOf.set(outcome.booked.json().id, outcome.cancels);
        }
      }
      let doubleCancels = 0;
      for (const [id, responses] of cancelsOf) {
        const ok = responses.filter((r) => r.statusCode === 200);
        expect(ok, `order ${id}: ${responses.map((r) => r.body).join(' | ')}`).toHaveLength(1);
        const canceled = ok[0]!.json();
        expect(canceled).toMatchObject({ id, status: 'canceled' });
        expect(canceled.items.map((i: { status: number }) => i.status)).toEqual([700]);
        for (const again of responses.filter((r) => r.statusCode !== 200)) {
          expectProblem(again, 409, 'already_canceled');
          doubleCancels++;
        }
      }
      const chainsBooked = outcomes.filter((o) => o.kind === 'chain' && o.cancels.length > 0);
      expect(doubleCancels).toBe(10 + chainsBooked.length);

      const bookings = outcomes.flatMap((o) =>
        o.kind === 'book' ? [o.response] : o.kind === 'chain' ? [o.booked] : [],
      );
      for (const response of bookings) {
        if (response.statusCode !== 201) expectProblem(response, 409, 'capacity_exceeded');
      }
      const booked = bookings.filter((r) => r.statusCode === 201).length;
      const [after] = await ledger(observer, [event.id]);
      // The API's answers add up to what the database holds, exactly.
      expect(after).toMatchObject({ max, reserved: max + booked - cancelsOf.size });
      expect(after!.reserved).toBe(after!.confirmedSeats);
      expect(after!.reserved).toBeLessThanOrEqual(max);
      expect(await confirmedOrdersOn(event.id)).toBe(after!.reserved);

      // No seat leaked: exactly the open seats can still be booked, then the event is full.
      const open = max - after!.reserved;
      const { result: refill } = await wave('refilling the event', () =>
        Promise.all(
          Array.from({ length: open + 5 }, (_, i) =>
            book(t.app, customerOf(i), [item(experienceId)]),
          ),
        ),
      );
      expect(tally(refill)).toEqual({
        ...(open > 0 ? { '201': open } : {}),
        '409 capacity_exceeded': 5,
      });
      expect((await ledger(observer, [event.id]))[0]).toMatchObject({
        reserved: max,
        confirmedSeats: max,
      });
    },
    TEST_MS,
  );
});

describe('multi-item orders over the same events in opposite orders', () => {
  it(
    'never deadlock into a 5xx and reserve all items or none',
    async () => {
      const deadlocksBefore = await deadlocks(observer);
      const kayak = await createExperience(t.app, seller, {
        name: 'Opposite Kayak',
        group: { outingMax: 25 },
      });
      const bike = await createExperience(t.app, seller, {
        name: 'Opposite Bike',
        group: { outingMax: 25 },
      });

      // Existing events with different capacities: every order takes a seat on each, so
      // the smaller one decides, and the larger must end with exactly as many seats taken.
      const small = await upsertEvent(t.app, seller, kayak, 30);
      const large = await upsertEvent(t.app, seller, bike, 40);
      const attempts = 200;
      const orders = Array.from({ length: attempts }, (_, i) =>
        i % 2 === 0 ? [item(kayak), item(bike)] : [item(bike), item(kayak)],
      );
      const { result: responses, ms } = await wave('two events, opposite orders', () =>
        Promise.all(orders.map((items, i) => book(t.app, customerOf(i), items))),
      );
      const counts = tally(responses);
      report('two events, opposite item orders', attempts, ms, counts);
      expect(serverErrors(responses)).toEqual([]);
      expect(counts).toEqual({ '201': 30, '409 capacity_exceeded': 170 });
      for (const [i, response] of responses.entries()) {
        if (response.statusCode === 201) {
          const statuses = response.json().items.map((x: { status: number }) => x.status);
          expect(statuses).toEqual([200, 200]);
          continue;
        }
        // Only the smaller event can be full; the item named is where it sits in the order.
        const problem = expectProblem(response, 409, 'capacity_exceeded');
        expect(problem).toMatchObject({ event: { id: small.id }, item: i % 2 === 0 ? 0 : 1 });
      }
      const byId = new Map((await ledger(observer, [small.id, large.id])).map((e) => [e.id, e]));
      expect(byId.get(small.id)).toMatchObject({ max: 30, reserved: 30, confirmedItems: 30 });
      expect(byId.get(large.id)).toMatchObject({ max: 40, reserved: 30, confirmedItems: 30 });

      // Events made on demand by the bookings themselves (outingMax 25 each), three items
      // in all six orders, a third of the successful orders canceled right away.
      const day = '2030-06-02';
      const legs: Item[] = [item(kayak, day, 900), item(kayak, day, 1500), item(bike, day, 900)];
      const permutations = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
      ];
      const rounds = 240;
      const { result: outcomes, ms: ms2 } = await wave('three events, all orders', () =>
        Promise.all(
          Array.from({ length: rounds }, async (_, i) => {
            const who = customerOf(i);
            const items = permutations[i % 6]!.map((leg) => legs[leg]!);
            const booked = await book(t.app, who, items);
            const canceled =
              booked.statusCode === 201 && i % 3 === 0
                ? await cancel(t.app, who, booked.json().id)
                : undefined;
            return { booked, canceled };
          }),
        ),
      );
      const all = outcomes.flatMap((o) => (o.canceled ? [o.booked, o.canceled] : [o.booked]));
      const counts2 = tally(all);
      report('three events made on demand, all item orders, cancels', all.length, ms2, counts2);
      expect(serverErrors(all)).toEqual([]);
      expect(
        Object.keys(counts2).filter((k) => !['200', '201', '409 capacity_exceeded'].includes(k)),
      ).toEqual([]);

      const made = await observer.query<{ id: string }>(
        `select id from events
         where experience_id = any($1) and starts_at >= $2 and starts_at < $3`,
        [[kayak, bike], new Date(`${day}T00:00:00Z`), new Date(`${day}T23:59:59Z`)],
      );
      // One event per departure, however many bookings raced to create it.
      expect(made).toHaveLength(3);
      const booked = outcomes.filter((o) => o.booked.statusCode === 201).length;
      const canceled = outcomes.filter((o) => o.canceled?.statusCode === 200).length;
      expect(outcomes.filter((o) => o.canceled).length).toBe(canceled);
      expect(booked - canceled).toBeLessThanOrEqual(25);
      const events = await ledger(
        observer,
        made.map((e) => e.id),
      );
      for (const event of events) {
        // All-or-nothing: each event holds exactly one seat per confirmed order.
        expect(event).toMatchObject({ max: 25, reserved: booked - canceled });
        expect(event.confirmedItems).toBe(booked - canceled);
      }

      const detected = (await deadlocks(observer)) - deadlocksBefore;
      // eslint-disable-next-line no-console -- informational: a retried deadlock is no failure
      console.log(`[booking-concurrency] deadlocks PostgreSQL detected (and retried): ${detected}`);
    },
    TEST_MS,
  );
});

describe('Idempotency-Key under concurrent retries', () => {
  it(
    '20 clients retrying one key make one booking and all get its response',
    async () => {
      const experienceId = await createExperience(t.app, seller, { name: 'Idempotent Tour' });
      const customer = await signUp(t.app, { name: 'Retrying Customer' });
      const key = `retry-${Date.now()}`;
      const items = [item(experienceId, FUTURE, 1500, 2)];
      const headers = { 'idempotency-key': key };
      // Each client sends the request and, like a well-behaved client, retries while the
      // first is still in progress.
      const client = async () => {
        const seen: LightMyRequestResponse[] = [];
        for (let attempt = 0; attempt < 200; attempt++) {
          const response = await book(t.app, customer, items, headers);
          seen.push(response);
          if (response.statusCode !== 409 || response.json().code !== 'idempotency_in_progress')
            break;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return seen;
      };
      const { result: histories, ms } = await wave('one key, retried', () =>
        Promise.all(Array.from({ length: 20 }, client)),
      );
      const responses = histories.flat();
      const counts = tally(responses);
      report('one Idempotency-Key, 20 clients retrying', responses.length, ms, counts);
      expect(serverErrors(responses)).toEqual([]);
      expect(Object.keys(counts).sort()).toEqual(
        counts['409 idempotency_in_progress'] ? ['201', '409 idempotency_in_progress'] : ['201'],
      );

      const created = responses.filter((r) => r.statusCode === 201);
      expect(created).toHaveLength(20);
      expect(histories.every((h) => h.at(-1)!.statusCode === 201)).toBe(true);
      const originals = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const original = originals[0]!;
      for (const response of created) {
        expect(response.json()).toEqual(original.json());
        if (response !== original) expect(response.headers['idempotent-replayed']).toBe('true');
      }
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        expectProblem(response, 409, 'idempotency_in_progress');
        expect(response.headers['idempotent-replayed']).toBeUndefined();
      }

      expect(await ordersOf(customer)).toEqual([original.json().id]);
      const eventId = original.json().items[0].event.id as string;
      expect((await ledger(observer, [eventId]))[0]).toMatchObject({
        reserved: 2,
        confirmedSeats: 2,
      });

      // A later retry replays the same response.
      const later = await book(t.app, customer, items, headers);
      expect(later.statusCode).toBe(201);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.json()).toEqual(original.json());

      // The same key with another body is refused, and books nothing.
      const reused = await book(t.app, customer, [item(experienceId, FUTURE, 1500, 3)], headers);
      expectProblem(reused, 422, 'idempotency_key_reused');
      // Keys belong to credentials: another customer's same key is a booking of its own.
      const other = await signUp(t.app, { name: 'Other Customer' });
      const theirs = await book(t.app, other, items, headers);
      expect(theirs.statusCode).toBe(201);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.json().id).not.toBe(original.json().id);
      expect(await ordersOf(customer)).toEqual([original.json().id]);
      expect((await ledger(observer, [eventId]))[0]).toMatchObject({
        reserved: 4,
        confirmedSeats: 4,
      });
    },
    TEST_MS,
  );

  it(
    'a refused booking replays as the same 409, even after seats free up',
    async () => {
      const experienceId = await createExperience(t.app, seller, { name: 'Idempotent Full' });
      const event = await upsertEvent(t.app, seller, experienceId, 3);
      const filler = await book(t.app, customerOf(1), [item(experienceId, FUTURE, 900, 3)]);
      expect(filler.statusCode).toBe(201);
      const customer = await signUp(t.app, { name: 'Too Late Customer' });
      const headers = { 'idempotency-key': `full-${Date.now()}` };

      // Concurrent first attempts at a full event: one refusal; the others replay it or
      // are told the first is still running.
      const { result: responses } = await wave('one key at a full event', () =>
        Promise.all(
          Array.from({ length: 10 }, () => book(t.app, customer, [item(experienceId)], headers)),
        ),
      );
      expect(serverErrors(responses)).toEqual([]);
      const refusals = responses.filter(
        (r) => r.statusCode === 409 && r.json().code === 'capacity_exceeded',
      );
      const originals = refusals.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const original = originals[0]!;
      expect(original.json()).toMatchObject({ event: { id: event.id }, seatsLeft: 0 });
      for (const response of responses) {
        if (response === original) continue;
        if (response.json().code === 'idempotency_in_progress') {
          expectProblem(response, 409, 'idempotency_in_progress');
          continue;
        }
        expectProblem(response, 409, 'capacity_exceeded');
        expect(response.headers['idempotent-replayed']).toBe('true');
        expect(withoutRequestId(response)).toEqual(withoutRequestId(original));
      }

      // A seat frees up; the key still answers with its first (refused) response.
      const canceled = await cancel(t.app, customerOf(1), filler.json().id);
      expect(canceled.statusCode).toBe(200);
      const { result: replays } = await wave('replays after a cancel', () =>
        Promise.all(
          Array.from({ length: 5 }, () => book(t.app, customer, [item(experienceId)], headers)),
        ),
      );
      for (const replay of replays) {
        expectProblem(replay, 409, 'capacity_exceeded');
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(withoutRequestId(replay)).toEqual(withoutRequestId(original));
      }
      expect(await ordersOf(customer)).toEqual([]);
      // Without the key the seat is really there.
      const fresh = await book(t.app, customer, [item(experienceId)]);
      expect(fresh.statusCode).toBe(201);
      expect((await ledger(observer, [event.id]))[0]).toMatchObject({
        reserved: 1,
        confirmedSeats: 1,
      });
    },
    TEST_MS,
  );
});

describe('throughput', () => {
  it(
    '500 bookings over 50 events, 32 at a time (printed, not asserted)',
    async () => {
      const experienceId = await createExperience(t.app, seller, {
        name: 'Busy Season',
        group: { outingMax: 100 },
      });
      const days = Array.from({ length: 50 }, (_, i) =>
        new Date(Date.UTC(2030, 6, 1 + i)).toISOString().slice(0, 10),
      );
      const attempts = 500;
      const tasks = Array.from(
        { length: attempts },
        (_, i) => () => book(t.app, customerOf(i), [item(experienceId, days[i % 50], 900)]),
      );
      const { result: responses, ms } = await wave('throughput', () => runPool(tasks, 32));
      const counts = tally(responses);
      report('500 bookings over 50 events, concurrency 32', attempts, ms, counts);
      expect(serverErrors(responses)).toEqual([]);
      expect(counts).toEqual({ '201': attempts });
      const eventIds = [...new Set(responses.map((r) => r.json().items[0].event.id as string))];
      expect(eventIds).toHaveLength(50);
      for (const event of await ledger(observer, eventIds)) {
        expect(event).toMatchObject({ max: 100, reserved: 10, confirmedSeats: 10 });
      }
    },
    TEST_MS,
  );
});
