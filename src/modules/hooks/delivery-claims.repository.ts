/**
 * Claiming due webhook deliveries (deliveries.repository.ts's `claimDue`), in two steps:
 * read the due deliveries of hosts and budgets not at their caps, let the dispatcher
 * choose those it has slots for, then claim exactly those (the attempt counted and the
 * lease set in one statement, taking rows with `FOR UPDATE SKIP LOCKED`).
 *
 * Why not claim the oldest due and give back what cannot start: with one owner or host
 * saturated, every poll claimed its backlog and wrote it straight back, dozens of useless
 * UPDATEs a poll for as long as the backlog lasted (review-octo finding 5). Reading costs
 * no write; a delivery another dispatcher claims between the two steps is passed over.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { fromNow } from '../../db/db-clock.js';
import type { DB, DomainEventsTable, HooksTable, WebhookDeliveriesTable } from '../../db/types.js';
import { AUTHORITY_PATTERN, type Busy } from './delivery-slots.js';

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
  /** Which of the due deliveries (oldest first, a few times `limit`) to claim. */
  choose?: (due: DueDelivery[]) => DueDelivery[];
}

/** How many due deliveries are read per one claimed: room to choose around full caps. */
const READ_AHEAD = 4;

async function dueDeliveries(
  db: Kysely<DB>,
  limit: number,
  busy: Busy | undefined,
): Promise<DueDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('hooks as h', 'h.id', 'd.hook_id')
    .select(['d.id', 'h.url', 'h.owner_id', 'h.reseller_id'])
    .where('d.status', '=', 'pending')
    .where('h.status', '=', 'enabled')
    .where('d.next_attempt_at', '<=', sql<Date>`now()`)
    .where((w) =>
      w.or([w('d.locked_until', 'is', null), w('d.locked_until', '<=', sql<Date>`now()`)]),
    )
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
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.event_seq')
    .limit(limit)
    .execute();
  return rows.map(({ id, ...hook }) => ({ id, hook }));
}

/**
 * Claims up to `limit` due deliveries of enabled hooks for `leaseMs`, oldest event first,
 * of those `plan.choose` picks (all, without one).
 */
export async function claimDue(
  db: Kysely<DB>,
  limit: number,
  leaseMs: number,
  plan: ClaimPlan = {},
): Promise<ClaimedDelivery[]> {
  const due = await dueDeliveries(db, plan.choose ? limit * READ_AHEAD : limit, plan.busy);
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
