/**
 * The claim's turns, written twice (src/modules/hooks/delivery-claims.repository.ts): under
 * 1,000 due deliveries the dispatcher reads them all in due order and takes their turns
 * itself (`inTurns`), for a backlog the SQL walk of every hook with pending deliveries
 * takes them (`everyHooksDue`). Both are meant to give the same deliveries in the same
 * order, on any data: the due deliveries of enabled hooks outside the busy budgets and
 * hosts, each hook's first `perHook` in due order, sorted by the budget's turn counted on
 * from the slots it holds (`held`), then due time, then event number, the first `limit`.
 *
 * That order is total but for ties: two deliveries due at the same moment for the same event
 * (one event heard by several hooks) may come in either order, in either implementation (and
 * within one budget they then take each other's turn). So, on random data stored in the
 * test database (several owners, their resellers' budgets, hosts spelled in mixed case,
 * disabled hooks, deliveries settled, leased, not yet due), for random plans:
 *
 * - read whole (a limit above every due delivery), both give the same deliveries;
 * - read to a limit, both give the same sequence of (turn, due time, event number) and the
 *   same budgets at each, ties taken as a set (the last tie of a full read as a count);
 * - where no two deliveries tie, both give the same ids in the same order.
 *
 * The dispatcher's side is read through `claimDue` itself, choosing nothing (so nothing is
 * claimed), and it must run one statement, the read in due order, not the walk. The walk
 * over only the hooks a walk found with due deliveries (`hooksDue`, what a dispatcher reads
 * between walks under a backlog) is held to the same.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import {
  READ_AHEAD,
  claimDue,
  everyHooksDue,
  hooksDue,
  type ClaimPlan,
  type DueDelivery,
} from '../../src/modules/hooks/delivery-claims.repository.js';
import { budgetOf } from '../../src/modules/hooks/delivery-shares.js';
import { hostOf } from '../../src/modules/hooks/delivery-slots.js';
import { SEED } from '../property/arbitraries.js';
import { createTestDatabase } from '../helpers/database.js';

const id = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(23, '0')}`;
const OWNERS = [1, 2, 3].map((n) => id('a', n));
/** Two resellers per owner: both in the owner's one resellers' budget. */
const RESELLERS = OWNERS.flatMap((_, o) => [id('b', 2 * o), id('b', 2 * o + 1)]);
/** Hosts as written: some differ only in case, so count as one (`hostOf`). */
const HOSTS = ['a.example', 'A.Example', 'b.example:8443', 'B.EXAMPLE:8443', '127.0.0.1:9000'];

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  for (const [o, owner] of OWNERS.entries()) {
    await sql`insert into users (id, name, email, password_hash, api_key_digest,
        api_key_ciphertext, api_version)
      values (${owner}, 'o', ${`o${o}@turns.example`}, 'x', ${Buffer.from([o])}, '\\x00'::bytea,
        date '2020-01-01')`.execute(db);
    for (const r of [2 * o, 2 * o + 1]) {
      await sql`insert into reseller_credentials (id, seller_id, name, key_digest,
          key_ciphertext, created_at)
        values (${RESELLERS[r]!}, ${owner}, 'r', ${Buffer.from([r, 1])}, '\\x00'::bytea, now())`.execute(
        db,
      );
    }
  }
});
afterAll(() => database.close());

interface HookSpec {
  owner: number;
  /** Which of the owner's two resellers made it; null: the owner's own. */
  reseller: 0 | 1 | null;
  host: number;
  enabled: boolean;
}
interface DeliverySpec {
  hook: number;
  event: number;
  /** Seconds from now: at or before now is due. */
  dueIn: number;
  status: 'pending' | 'delivered' | 'failed';
  lease: 'none' | 'expired' | 'held';
}

const hookArb = fc.record({
  owner: fc.integer({ min: 0, max: OWNERS.length - 1 }),
  reseller: fc.constantFrom(null, null, 0 as const, 1 as const),
  host: fc.integer({ min: 0, max: HOSTS.length - 1 }),
  enabled: fc.constantFrom(true, true, false),
});

/**
 * Few due times and events, so that deliveries tie on the due time and, with `fanned`,
 * several hooks hear one event at one moment (what the fan-out writes). Without it each
 * delivery has an event of its own: no ties at all.
 */
const dataArb = fc
  .record({
    hooks: fc.array(hookArb, { minLength: 2, maxLength: 8 }),
    fanned: fc.boolean(),
    deliveries: fc.array(
      fc.record({
        hook: fc.nat(),
        event: fc.integer({ min: 0, max: 11 }),
        dueIn: fc.constantFrom(-40, -30, -30, -20, -10, -10, 0, 3600),
        status: fc.constantFrom('pending', 'pending', 'pending', 'pending', 'delivered', 'failed'),
        lease: fc.constantFrom('none', 'none', 'none', 'expired', 'held'),
      }),
      { minLength: 15, maxLength: 80 },
    ),
  })
  .map(({ hooks, fanned, deliveries }) => {
    const seen = new Set<string>();
    const kept: DeliverySpec[] = [];
    for (const [n, d] of deliveries.entries()) {
      const hook = d.hook % hooks.length;
      const event = fanned ? d.event : n;
      // One delivery per hook and event (the table's unique key); with an event fanned out,
      // one due time for all its deliveries, as the fan-out writes them.
      if (seen.has(`${hook} ${event}`)) continue;
      seen.add(`${hook} ${event}`);
      const dueIn = fanned && d.dueIn !== 3600 ? -10 * (event % 4) : d.dueIn;
      kept.push({ ...d, hook, event, dueIn });
    }
    return { hooks: hooks, deliveries: kept };
  });

/** A plan over the data's budgets and hosts: some busy, some holding slots. */
const planArb = fc.record({
  limit: fc.integer({ min: 1, max: 12 }),
  perHook: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  busyOwners: fc.subarray(OWNERS, { maxLength: 1 }),
  busyResellers: fc.subarray(OWNERS, { maxLength: 1 }),
  busyHosts: fc.subarray([...new Set(HOSTS.map((h) => hostOf(`https://${h}/`)))], {
    maxLength: 2,
  }),
  held: fc.array(
    fc.tuple(
      fc.integer({ min: 0, max: OWNERS.length - 1 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 8 }),
    ),
    { maxLength: 4 },
  ),
});

interface Stored {
  id: string;
  budget: string;
  due: number;
  seq: number;
}

/** Replaces the hooks, events and deliveries with the case's; what each delivery is. */
async function store(data: {
  hooks: HookSpec[];
  deliveries: DeliverySpec[];
}): Promise<Map<string, Stored>> {
  const db = database.db;
  await sql`delete from webhook_deliveries`.execute(db);
  await sql`delete from hooks`.execute(db);
  await sql`delete from domain_events`.execute(db);
  for (const [n, h] of data.hooks.entries()) {
    const scheme = n % 3 === 0 ? 'HTTPS' : 'https';
    await sql`insert into hooks (id, owner_id, reseller_id, event_name, url, secret_ciphertext,
        api_version, status, hears_after)
      values (${id('c', n)}, ${OWNERS[h.owner]!},
        ${h.reseller === null ? null : RESELLERS[2 * h.owner + h.reseller]!}, '*',
        ${`${scheme}://${HOSTS[h.host]!}/h${n}`}, '\\x00'::bytea, '2020-01-01',
        ${h.enabled ? 'enabled' : 'disabled'}, 0)`.execute(db);
  }
  const events = [...new Set(data.deliveries.map((d) => d.event))];
  for (const e of events) {
    await sql`insert into domain_events (id, name, object) values (${id('e', e)}, 'order.create',
      '{}'::jsonb)`.execute(db);
  }
  // One moment for every row (each statement's now() is its own).
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  const at = (seconds: number) => new Date(rows[0]!.now.getTime() + seconds * 1000);
  const stored = new Map<string, Stored>();
  for (const [n, d] of data.deliveries.entries()) {
    const h = data.hooks[d.hook]!;
    const lease =
      d.lease === 'none'
        ? null
        : d.lease === 'held'
          ? sql`now() + interval '1 hour'`
          : sql`now() - interval '1 hour'`;
    await sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq,
        status, next_attempt_at, locked_until)
      values (${id('d', n)}, ${id('c', d.hook)}, ${id('e', d.event)}, 'order.create',
        ${1000 + d.event}, ${d.status}, ${at(d.dueIn)}, ${lease})`.execute(db);
    stored.set(id('d', n), {
      id: id('d', n),
      budget: budgetOf({
        owner_id: OWNERS[h.owner]!,
        reseller_id: h.reseller === null ? null : 'r',
      }),
      due: d.dueIn,
      seq: 1000 + d.event,
    });
  }
  return stored;
}

/** The dispatcher's read (`inTurns` under 1,000 due): what `claimDue` offers `choose`. */
async function dispatcherRead(limit: number, plan: ClaimPlan): Promise<DueDelivery[]> {
  let offered: DueDelivery[] = [];
  let statements = 0;
  const db = database.db.withPlugin({
    transformQuery: (args) => ((statements += 1), args.node),
    transformResult: async (args) => args.result,
  });
  const claimed = await claimDue(db, limit, 60_000, {
    ...plan,
    choose: (due) => ((offered = due), []),
  });
  expect(claimed).toEqual([]);
  expect(statements, 'one read in due order, not the walk').toBe(1);
  return offered;
}

/**
 * Each delivery read with its place in the order, `[turn, due, seq]`: its budget's turn
 * counted on from what the budget holds (the n-th of its budget in the read is its n-th
 * turn, as a read in turns takes each budget's oldest first).
 */
function places(read: DueDelivery[], stored: Map<string, Stored>, held: Record<string, number>) {
  const ofBudget = new Map<string, number>();
  return read.map((d) => {
    const s = stored.get(d.id)!;
    expect(budgetOf(d.hook)).toBe(s.budget);
    const nth = (ofBudget.get(s.budget) ?? 0) + 1;
    ofBudget.set(s.budget, nth);
    const turn = (held[s.budget] ?? 0) + nth;
    return { id: d.id, budget: s.budget, key: [turn, s.due, s.seq] as const };
  });
}

const before = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
};

/** Runs of equal places, each as its budgets sorted (the last as a count when `cut`). */
function tieGroups(placed: ReturnType<typeof places>, cut: boolean) {
  const groups: { key: string; budgets: string[] }[] = [];
  for (const p of placed) {
    const key = p.key.join(' ');
    if (groups.at(-1)?.key !== key) groups.push({ key, budgets: [] });
    groups.at(-1)!.budgets.push(p.budget);
  }
  for (const g of groups) g.budgets.sort();
  const last = groups.at(-1);
  if (cut && last) last.budgets = last.budgets.map(() => '(cut)');
  return groups;
}

it('inTurns hands out what everyHooksDue does, in the same turns, as does the walk of hooksDue', async () => {
  await fc.assert(
    fc.asyncProperty(
      dataArb,
      fc.array(planArb, { minLength: 3, maxLength: 3 }),
      async (data, plans) => {
        const stored = await store(data);
        const tied =
          new Set([...stored.values()].map((s) => `${s.due} ${s.seq}`)).size < stored.size;
        for (const p of plans) {
          const held = Object.fromEntries(
            p.held.map(([o, resellers, n]) => [
              budgetOf({ owner_id: OWNERS[o]!, reseller_id: resellers ? 'r' : null }),
              n,
            ]),
          );
          const plan: ClaimPlan = {
            busy: { owners: p.busyOwners, resellers: p.busyResellers, hosts: p.busyHosts },
            held,
            ...(p.perHook === undefined ? {} : { perHook: p.perHook }),
          };
          // Whole: every due delivery the plan lets through, the same set, and the same
          // through the hooks a walk finds with due deliveries.
          const whole = await dispatcherRead(1000, plan);
          const walked = await everyHooksDue(database.db, 1000 * READ_AHEAD, plan);
          const found = await hooksDue(database.db);
          const known = await everyHooksDue(database.db, 1000 * READ_AHEAD, plan, found);
          const ids = (read: DueDelivery[]) => new Set(read.map((d) => d.id));
          expect(ids(whole)).toEqual(ids(walked));
          expect(ids(known)).toEqual(ids(walked));

          // To a limit: the same places, the same budgets at each.
          const limit = p.limit * READ_AHEAD;
          const reads = {
            inTurns: await dispatcherRead(p.limit, plan),
            walk: await everyHooksDue(database.db, limit, plan),
            ofFound: await everyHooksDue(database.db, limit, plan, found),
          };
          const placed = Object.values(reads).map((read) => places(read, stored, held));
          for (const order of placed) {
            for (let i = 1; i < order.length; i++) {
              expect(before(order[i]!.key, order[i - 1]!.key), 'in order of turns').toBe(false);
            }
          }
          const [, walkPlaces] = placed;
          const cut = (read: DueDelivery[]) => read.length === limit;
          for (const [n, read] of Object.values(reads).entries()) {
            expect(placed[n]!.map((o) => o.key)).toEqual(walkPlaces!.map((o) => o.key));
            expect(tieGroups(placed[n]!, cut(read))).toEqual(
              tieGroups(walkPlaces!, cut(reads.walk)),
            );
            if (!tied) expect(read.map((d) => d.id)).toEqual(reads.walk.map((d) => d.id));
          }
        }
      },
    ),
    { numRuns: 40, seed: SEED },
  );
});
