/**
 * Retention (src/retention.ts, docs/operations.md): settled work older than RETENTION_DAYS is
 * deleted, what is still waiting or still needed stays, and what the API shows follows.
 *
 * Rows are made through the API, then aged: their ids (which start with their creation
 * second) and times moved 40 days back, as a database a month and more in service holds
 * them. The sweep runs as `cli prune` and as the server's own loop.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { DB } from '../../src/db/types.js';
import { cliOn } from '../helpers/cli.js';
import { as, createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { book, item, openShop, type Shop } from '../helpers/booking.js';
import { eventually } from '../helpers/eventually.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const AGED_DAYS = 40;

let t: TestApp;
let receiver: Receiver;
let shop: Shop;
let hookId: string;
beforeAll(async () => {
  t = await createTestApp({
    BOOKING_ENV: 'sandbox',
    WEBHOOK_DISPATCH: 'true',
    WEBHOOK_POLL_MS: '20',
  });
  receiver = await startReceiver();
  shop = await openShop(t.app);
  const hook = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/users/${shop.seller.id}/hooks`,
    payload: { eventName: 'order.create', url: receiver.url('/retention') },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  hookId = hook.json().id;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/**
 * Moves every row of the pruned tables `days` back: times, and ids with the references to
 * them (foreign keys checked off for the one transaction that rewrites both sides).
 */
async function age(db: Kysely<DB>, days: number): Promise<void> {
  const seconds = days * 86_400;
  const back = (column: string) =>
    sql.raw(`lpad(to_hex(('x' || substr(${column}, 1, 8))::bit(32)::bigint - ${seconds}), 8, '0')
      || substr(${column}, 9)`);
  const interval = sql.raw(`interval '${days} days'`);
  await db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    await sql`update domain_events set id = ${back('id')}, created_at = created_at - ${interval}`.execute(
      tx,
    );
    await sql`update webhook_deliveries set id = ${back('id')}, event_id = ${back('event_id')},
      created_at = created_at - ${interval}, updated_at = updated_at - ${interval}`.execute(tx);
    await sql`update webhook_attempts set delivery_id = ${back('delivery_id')}`.execute(tx);
    await sql`update outbox set id = ${back('id')}, created_at = created_at - ${interval}`.execute(
      tx,
    );
    await sql`update idempotency_keys set created_at = created_at - ${interval}`.execute(tx);
  });
}

async function bookOne(name: string, headers: Record<string, string> = {}): Promise<string> {
  const r = await book(
    t.app,
    shop.seller,
    {
      customerName: name,
      customerEmail: `${name.toLowerCase()}@example.com`,
      items: [item(shop.experienceId)],
    },
    headers,
  );
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id;
}

async function deliveries(): Promise<{ id: string; status: string }[]> {
  const r = await as(t.app, shop.seller, {
    method: 'GET',
    url: `/api/users/${shop.seller.id}/hooks/${hookId}/deliveries`,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
}

const cli = (...args: string[]) => cliOn(t, ...args);

const count = async (
  table: 'domain_events' | 'outbox' | 'idempotency_keys' | 'webhook_deliveries',
) =>
  Number(
    (
      await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the retention sweep', () => {
  let oldOrder: string;
  let canceledOrder: string;
  let newOrder: string;

  it('deletes settled work older than RETENTION_DAYS and keeps what still waits or is needed', async () => {
    // Old: two bookings delivered to the hook, one made with an Idempotency-Key; one of them
    // canceled (its confirmation, never sent, is skipped; no cancellation email).
    oldOrder = await bookOne('Olga', { 'Idempotency-Key': 'retention-old' });
    canceledOrder = await bookOne('Carl');
    const canceled = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${canceledOrder}/cancel`,
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    await eventually(async () =>
      expect((await deliveries()).map((d) => d.status)).toEqual(['delivered', 'delivered']),
    );
    // Olga's confirmation was sent (no relay here: as the dispatcher would mark it).
    await t.database.db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: new Date() })
      .where('order_id', '=', oldOrder)
      .execute();
    await age(t.database.db, AGED_DAYS);
    // One old delivery waits again (its hook disabled meanwhile, say): it and its event stay.
    const [waiting] = await deliveries();
    await t.database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: new Date(Date.now() + 3_600_000) })
      .where('id', '=', waiting!.id)
      .execute();

    // New: one booking, delivered.
    newOrder = await bookOne('Nina', { 'Idempotency-Key': 'retention-new' });
    await eventually(async () => expect(await deliveries()).toHaveLength(3));
    await eventually(async () =>
      expect((await deliveries()).filter((d) => d.status === 'delivered')).toHaveLength(2),
    );
    const before = {
      newEvents: Number(
        (
          await t.database.db
            .selectFrom('domain_events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('created_at', '>', new Date(Date.now() - 86_400_000))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      outbox: await count('outbox'),
      keys: await count('idempotency_keys'),
    };

    const pruned = await cli('prune');
    expect(pruned.code, pruned.out.join('\n')).toBe(0);
    expect(pruned.out).toContain('deleted 1 from idempotency_keys');
    // Carl's skipped confirmation; Olga's sent confirmation stays with her order.
    expect(pruned.out).toContain('deleted 1 from outbox');
    expect(pruned.out).toContain('deleted 1 from webhook_deliveries');

    const left = await deliveries();
    expect(left.map((d) => d.id).sort()).toEqual(
      [waiting!.id, ...left.filter((d) => d.status === 'delivered').map((d) => d.id)].sort(),
    );
    expect(left).toHaveLength(2);
    expect(left.find((d) => d.id === waiting!.id)?.status).toBe('pending');
    // Every old event goes (sign-ups, the experience, the bookings, the cancellation) but
    // the one the waiting delivery names; the new ones stay.
    const oldEvents = await t.database.db
      .selectFrom('domain_events')
      .select('id')
      .where('created_at', '<', new Date(Date.now() - 30 * 86_400_000))
      .execute();
    const waitingEvent = await t.database.db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('id', '=', waiting!.id)
      .executeTakeFirstOrThrow();
    expect(oldEvents.map((e) => e.id)).toEqual([waitingEvent.event_id]);
    expect(await count('domain_events')).toBe(before.newEvents + 1);
    expect(await count('outbox')).toBe(before.outbox - 1);
    expect(await count('idempotency_keys')).toBe(before.keys - 1);

    // Nothing left to do: a second run deletes nothing.
    const again = await cli('prune');
    expect(
      again.out.filter((line) => line.startsWith('deleted ') && !line.startsWith('deleted 0')),
    ).toEqual([]);
  });

  it("keeps an order's sent confirmation, so its cancellation still goes to that address", async () => {
    const r = await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/orders/${oldOrder}/cancel`,
    });
    expect(r.statusCode, r.body).toBe(200);
    const mail = await t.database.db
      .selectFrom('outbox')
      .select(['kind', 'recipient'])
      .where('order_id', '=', oldOrder)
      .orderBy('kind')
      .execute();
    expect(mail).toEqual([
      { kind: 'order_cancellation', recipient: 'olga@example.com' },
      { kind: 'order_confirmation', recipient: 'olga@example.com' },
    ]);
  });

  it('a key past its 24 h is gone: the same key with another request is a new request', async () => {
    const r = await book(
      t.app,
      shop.seller,
      { customerName: 'Other', items: [item(shop.experienceId)] },
      { 'Idempotency-Key': 'retention-old' },
    );
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().id).not.toBe(oldOrder);
    // The recent key still replays its answer.
    const replay = await book(
      t.app,
      shop.seller,
      { customerName: 'Nina', customerEmail: 'nina@example.com', items: [item(shop.experienceId)] },
      { 'Idempotency-Key': 'retention-new' },
    );
    expect(replay.statusCode).toBe(201);
    expect(replay.json().id).toBe(newOrder);
  });

  it('runs in the server, at start and every RETENTION_SWEEP_MS, counted in /metrics', async () => {
    await bookOne('Pia');
    await eventually(async () =>
      expect((await deliveries()).filter((d) => d.status === 'delivered')).toHaveLength(3),
    );
    await age(t.database.db, AGED_DAYS);
    const sweeper = await buildApp(
      testConfig({ RETENTION_SWEEP: 'true', RETENTION_SWEEP_MS: '1000' }),
      { database: t.database },
    );
    await sweeper.ready();
    try {
      // Everything delivered is now old: only the waiting delivery is left.
      await eventually(async () => expect(await deliveries()).toHaveLength(1));
      const metrics = await sweeper.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(
        /^retention_pruned_rows_total\{table="webhook_deliveries"\} [1-9]/m,
      );
    } finally {
      await sweeper.close();
    }
  });

  it('refuses arguments and a retention under two days', async () => {
    expect((await cli('prune', 'now')).code).toBe(1);
    expect(() => testConfig({ RETENTION_DAYS: '1' })).toThrow(/RETENTION_DAYS/);
  });
});
