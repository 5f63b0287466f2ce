/**
 * Claiming due webhook deliveries (deliveries.repository.ts's `claimDue`), in two steps:
 * read the due deliveries of hosts and budgets not at their caps, in fair turns, let the
 * dispatcher choose those it has slots for, then claim exactly those (the attempt counted
 * and the lease set in one statement, taking rows with `FOR UPDATE SKIP LOCKED`).
 *
 * Why not claim the oldest due and give back what cannot start: with one owner or host
 * saturated, every poll claimed its backlog and wrote it straight back, dozens of useless
 * UPDATEs a poll for as long as the backlog lasted (review-octo finding 5). Reading costs
 * no write; a delivery another dispatcher claims between the two steps is passed over.
 *
 * Why turns, not the oldest due first: a slot freed by a stalling owner went straight back
 * to that owner's backlog, older than anyone else's delivery, so another tenant waited for
 * all of it (review-hooks finding 3; delivery-shares.ts). The read takes each hook's oldest
 * due few and orders them by budget turns. It walks the hooks that have pending deliveries
 * (one index probe each, `webhook_deliveries_hook_due`, migration 0030), never a backlog:
 * with 100,000 deliveries of four owners at their caps waiting and 741 hooks holding pending
 * deliveries, reading past them in due order took 110,000 buffers and 64 ms a poll, and
 * this read takes 3,900 and 12 ms: a few buffers per hook with deliveries pending
 * (test/postgres/webhook-claim-plan.test.ts). A dispatcher walks at most once a poll
 * interval, and reads only the hooks the walk found in between (`Walks`).
 */
import { sql, type Kysely, type QueryCreator, type Selectable, type SqlBool } from 'kysely';
import { fromNow } from '../../db/db-clock.js';
import type { DB, DomainEventsTable, HooksTable, WebhookDeliveriesTable } from '../../db/types.js';
import { AUTHORITY_PATTERN, type Busy } from './delivery-slots.js';
import { inTurns } from './due-turns.js';

export type ClaimedDelivery = Selectable<WebhookDeliveriesTable> & {
  hook: Pick<
    Selectable<HooksTable>,
    'id' | 'owner_id' | 'reseller_id' | 'url' | 'secret_ciphertext' | 'api_version'
  >;
  event: Pick<
    Selectable<DomainEventsTable>,
    'id' | 'name' | 'actor_id' | 'object' | 'audit' | 'created_at'
  >;
};

/** A due delivery before it is claimed, with what the caps need of its hook. */
export interface DueDelivery {
  id: string;
  hook: Pick<Selectable<HooksTable>, 'url' | 'owner_id' | 'reseller_id'>;
}

export interface ClaimPlan {
  /** Budgets and hosts at their caps: their deliveries are not even read. */
  busy?: Busy;
  /**
   * Slots each budget holds already (`budgetOf`, delivery-shares.ts): its turns in the
   * read's order count on from there. None: every budget starts at its first turn.
   */
  held?: Record<string, number>;
  /** How many due deliveries of one hook to read at most (no more can start at once). */
  perHook?: number;
  /** Which of the due deliveries (in turns, a few times `limit`) to claim. */
  choose?: (due: DueDelivery[]) => DueDelivery[];
  /** The dispatcher's memory of its last walk, which rates walks (`Walks`). */
  walks?: Walks;
}

/**
 * What a dispatcher keeps of its last walk under a backlog, to walk every hook with
 * pending deliveries at most once per `everyMs` (its poll interval). With a cap full the
 * dispatcher polls again as each delivery ends, and every poll walked: beside 20,000 hooks
 * waiting on retries, a walk of 200 ms (embedded) or 100 ms (PostgreSQL) a poll, and a
 * receiver answering at once got 6 deliveries a second, or 32 (bench/webhook-fairness.ts;
 * 177 and 239 now). Between walks a poll reads the due deliveries of the hooks the last
 * walk found with some due, in the walk's own turns (a probe per such hook, not per hook
 * with any pending): what the walk gives, but for a hook that fell due since, whose turn
 * waits for the next walk, a poll interval at most.
 */
export interface Walks {
  /** How long the hooks a walk found stand, in milliseconds. */
  everyMs: number;
  /** The hooks the last walk found with due deliveries, and when (`performance.now()`). */
  last?: { hooks: string[]; at: number };
}

/** How many due deliveries are read per one claimed: room to choose around full caps. */
export const READ_AHEAD = 4;

/**
 * The partial indexes' own predicate, written out (not a parameter) so that any plan of
 * the statement, a generic one included, can use them.
 */
const pending = (alias: string) => sql<SqlBool>`${sql.ref(`${alias}.status`)} = 'pending'`;

/** Not yet leased, or its lease ran out. */
const free = (alias: string) =>
  sql<SqlBool>`(${sql.ref(`${alias}.locked_until`)} is null or ${sql.ref(`${alias}.locked_until`)} <= now())`;

/**
 * How many due deliveries are read in due order before the walk of every hook is needed.
 * Fewer than this due (what a poll sees but under a backlog) are all in hand after one
 * short read of the due index, and their turns are taken in the dispatcher (due-turns.ts);
 * the walk costs a probe per hook with any pending delivery (retries waiting, disabled
 * hooks'), on every poll even when nothing is due (20,000 such hooks: 166 ms a poll,
 * against 0.02 ms for this read).
 */
const DUE_READ = 1000;

/**
 * The due deliveries of enabled hooks outside `busy`: up to `perHook` per hook, oldest
 * first, interleaved by budget (a budget's n-th delivery read after every budget's
 * (n-1)-th, counting the slots it holds), oldest first within a turn; the first `limit`.
 */
async function dueDeliveries(db: Kysely<DB>, limit: number, plan: ClaimPlan) {
  const { walks } = plan;
  if (walks?.last && performance.now() - walks.last.at < walks.everyMs) {
    return everyHooksDue(db, limit, plan, walks.last.hooks);
  }
  const oldest = await oldestDue(db, DUE_READ);
  if (oldest.length < DUE_READ) {
    if (walks) delete walks.last;
    return inTurns(oldest, limit, plan);
  }
  if (!walks) return everyHooksDue(db, limit, plan);
  const at = performance.now();
  walks.last = { hooks: await hooksDue(db), at };
  return everyHooksDue(db, limit, plan, walks.last.hooks);
}

/** The first `count` due deliveries in due order, whatever their hooks (the due index). */
async function oldestDue(db: Kysely<DB>, count: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('hooks as h', 'h.id', 'd.hook_id')
    .select([
      'd.id',
      'd.hook_id',
      'h.url',
      'h.owner_id',
      'h.reseller_id',
      'h.status as hook_status',
    ])
    .where(pending('d'))
    .where('d.next_attempt_at', '<=', sql<Date>`now()`)
    .where(free('d'))
    .orderBy('d.next_attempt_at')
    .orderBy('d.event_seq')
    .limit(count)
    .execute();
}

/** Statements that start from a list of hooks, `pending_hooks`. */
type WithHooks = QueryCreator<DB & { pending_hooks: { hook_id: string | null } }>;

/**
 * The hooks with pending deliveries, one index probe each (a loose index scan of
 * `webhook_deliveries_hook_due`): the walk's first step.
 */
const withPendingHooks = (db: Kysely<DB>): WithHooks =>
  db.withRecursive('pending_hooks(hook_id)', (qc) =>
    qc
      .selectFrom('webhook_deliveries as w')
      .select((eb) => eb.fn.min<string | null>('w.hook_id').as('hook_id'))
      .where(pending('w'))
      .unionAll((qc) =>
        qc
          .selectFrom('pending_hooks as p')
          .select((eb) =>
            eb
              .selectFrom('webhook_deliveries as w')
              .select((eb) => eb.fn.min<string | null>('w.hook_id').as('next'))
              .where(pending('w'))
              .whereRef('w.hook_id', '>', 'p.hook_id')
              .as('hook_id'),
          )
          .where('p.hook_id', 'is not', null),
      ),
  );

/**
 * The enabled hooks with deliveries due (leased or not, whatever their budget's or host's
 * caps): the walk's hooks, which a dispatcher keeps for a poll interval (`Walks`).
 */
export async function hooksDue(db: Kysely<DB>): Promise<string[]> {
  const rows = await withPendingHooks(db)
    .selectFrom('pending_hooks as p')
    .innerJoin('hooks as h', 'h.id', 'p.hook_id')
    .select('h.id')
    .where('h.status', '=', 'enabled')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_deliveries as d')
          .select('d.id')
          .whereRef('d.hook_id', '=', 'h.id')
          .where(pending('d'))
          .where('d.next_attempt_at', '<=', sql<Date>`now()`),
      ),
    )
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The walk of every hook with pending deliveries, for a backlog of DUE_READ or more; of
 * only `hooks`, when given (those a walk found with due deliveries, `hooksDue`).
 */
export async function everyHooksDue(
  db: Kysely<DB>,
  limit: number,
  { busy, held = {}, perHook = limit }: ClaimPlan,
  hooks?: readonly string[],
): Promise<DueDelivery[]> {
  const budget = sql<string>`(case when h.reseller_id is null then 'owner ' else 'resellers ' end || h.owner_id)`;
  const start: WithHooks = hooks
    ? db.with('pending_hooks', (qc) =>
        qc.selectNoFrom(sql<string | null>`unnest(${[...hooks]}::text[])`.as('hook_id')),
      )
    : withPendingHooks(db);
  const rows = await start
    .with('due', (qc) =>
      qc
        .selectFrom('pending_hooks as p')
        .innerJoin('hooks as h', 'h.id', 'p.hook_id')
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('webhook_deliveries as d')
              .select(['d.id', 'd.next_attempt_at', 'd.event_seq'])
              .whereRef('d.hook_id', '=', 'h.id')
              .where(pending('d'))
              .where('d.next_attempt_at', '<=', sql<Date>`now()`)
              .where(free('d'))
              .orderBy('d.next_attempt_at')
              .orderBy('d.event_seq')
              .limit(perHook)
              .as('d'),
          (join) => join.onTrue(),
        )
        .select([
          'd.id',
          'd.next_attempt_at',
          'd.event_seq',
          'h.url',
          'h.owner_id',
          'h.reseller_id',
        ])
        .select(budget.as('budget'))
        .select(
          sql<number>`row_number() over (partition by ${budget} order by d.next_attempt_at, d.event_seq)`.as(
            'turn',
          ),
        )
        .where('h.status', '=', 'enabled')
        .$if((busy?.owners.length ?? 0) > 0, (q) =>
          q.where((w) =>
            w.or([w('h.reseller_id', 'is not', null), w('h.owner_id', 'not in', busy!.owners)]),
          ),
        )
        .$if((busy?.resellers.length ?? 0) > 0, (q) =>
          q.where((w) =>
            w.or([w('h.reseller_id', 'is', null), w('h.owner_id', 'not in', busy!.resellers)]),
          ),
        )
        .$if((busy?.hosts.length ?? 0) > 0, (q) =>
          q.where(
            sql<string>`coalesce(lower(substring(h.url from ${AUTHORITY_PATTERN})), '')`,
            'not in',
            busy!.hosts,
          ),
        ),
    )
    .selectFrom('due')
    .select(['id', 'url', 'owner_id', 'reseller_id'])
    .orderBy(sql`coalesce((${JSON.stringify(held)}::jsonb ->> budget)::int, 0) + turn`)
    .orderBy('next_attempt_at')
    .orderBy('event_seq')
    .limit(limit)
    .execute();
  return rows.map(({ id, ...hook }) => ({ id, hook }));
}

/**
 * Claims up to `limit` due deliveries of enabled hooks for `leaseMs`, in the read's turns,
 * of those `plan.choose` picks (all, without one).
 */
export async function claimDue(
  db: Kysely<DB>,
  limit: number,
  leaseMs: number,
  plan: ClaimPlan = {},
): Promise<ClaimedDelivery[]> {
  const due = await dueDeliveries(db, plan.choose ? limit * READ_AHEAD : limit, plan);
  const chosen = (plan.choose ? plan.choose(due) : due).slice(0, limit).map((d) => d.id);
  if (chosen.length === 0) return [];
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      locked_until: fromNow(leaseMs),
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('webhook_deliveries as d')
        .innerJoin('hooks as h', 'h.id', 'd.hook_id')
        .select('d.id')
        .where('d.id', 'in', chosen)
        // Still due and free: another dispatcher may have claimed it since it was read.
        .where('d.status', '=', 'pending')
        .where('h.status', '=', 'enabled')
        .where('d.next_attempt_at', '<=', sql<Date>`now()`)
        .where((w) =>
          w.or([w('d.locked_until', 'is', null), w('d.locked_until', '<=', sql<Date>`now()`)]),
        )
        .forUpdate('d')
        .skipLocked(),
    )
    .returningAll()
    .execute();
  if (claimed.length === 0) return [];
  const [hooks, events] = await Promise.all([
    db
      .selectFrom('hooks')
      .select(['id', 'owner_id', 'reseller_id', 'url', 'secret_ciphertext', 'api_version'])
      .where('id', 'in', [...new Set(claimed.map((d) => d.hook_id))])
      .execute(),
    db
      .selectFrom('domain_events')
      .select(['id', 'name', 'actor_id', 'object', 'audit', 'created_at'])
      .where('id', 'in', [...new Set(claimed.map((d) => d.event_id))])
      .execute(),
  ]);
  const hookOf = new Map(hooks.map((h) => [h.id, h]));
  const eventOf = new Map(events.map((e) => [e.id, e]));
  // In the order they were read (the UPDATE returns rows in no particular order).
  const order = new Map(chosen.map((id, i) => [id, i]));
  return claimed
    .filter((d) => hookOf.has(d.hook_id))
    .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    .map((d) => ({ ...d, hook: hookOf.get(d.hook_id)!, event: eventOf.get(d.event_id)! }));
}
