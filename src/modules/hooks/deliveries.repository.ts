/**
 * All SQL of the webhook dispatcher: fanning new domain events out to the hooks listening
 * for them (the fan-out's SQL is fan-out.repository.ts), claiming due deliveries with a
 * lease (the claim's SQL is delivery-claims.repository.ts), and recording each attempt's
 * outcome.
 *
 * Safe with any number of dispatchers on one database: both the fan-out and the claim take
 * rows with `FOR UPDATE SKIP LOCKED` (a row being taken by one is passed over by the others)
 * and a claimed delivery carries a lease; outcomes are fenced by the attempt that claimed
 * it. Every time comparison uses the database's clock.
 */
import { sql, type Kysely } from 'kysely';
import { fromNow } from '../../db/db-clock.js';
import { newId } from '../../db/ids.js';
import { storableText } from '../../db/storable-text.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import type { DB } from '../../db/types.js';
import { claimDue, type ClaimedDelivery, type ClaimPlan } from './delivery-claims.repository.js';
import { fanOut } from './fan-out.repository.js';

export type {
  ClaimedDelivery,
  ClaimPlan,
  DueDelivery,
  Walks,
} from './delivery-claims.repository.js';

const MAX_TEXT = 1024;

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  response: string | null;
}

/**
 * Whether a resend was asked for while the delivery was in flight: a claim counts its
 * attempt and leaves `round_start` behind, a resend sets `round_start` to the attempts
 * (hooks.repository.ts `resend`), so the two are equal under a lease only then.
 */
const RESENT = sql<boolean>`round_start = attempts`;

type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * The columns an attempt's outcome sets, `next` deciding, unless a resend was asked for
 * during the attempt: then the delivery stays pending, due when the resend made it.
 */
function settled(outcome: AttemptOutcome, next: 'delivered' | 'give-up' | number) {
  const status: DeliveryStatus =
    next === 'delivered' ? 'delivered' : next === 'give-up' ? 'failed' : 'pending';
  return {
    status:
      status === 'pending'
        ? status
        : sql<DeliveryStatus>`case when ${RESENT} then 'pending' else ${status} end`,
    last_status: outcome.statusCode,
    locked_until: null,
    updated_at: sql<Date>`now()`,
    ...(next === 'delivered' ? { delivered_at: sql<Date>`now()` } : {}),
    ...(typeof next === 'number'
      ? {
          next_attempt_at: sql<Date>`case when ${RESENT} then next_attempt_at else ${fromNow(next)} end`,
        }
      : {}),
  };
}

export function deliveriesRepository(db: Kysely<DB>) {
  return {
    /**
     * Turns up to `limit` new domain events into deliveries (fewer when theirs would pass
     * DELIVERIES_PER_FAN_OUT); how many events it took (fan-out.repository.ts).
     */
    fanOut: (limit: number): Promise<number> => fanOut(db, limit),

    /**
     * Claims up to `limit` due deliveries of enabled hooks for `leaseMs`, oldest event first,
     * leaving out full budgets and hosts and claiming only what `plan.choose` picks
     * (delivery-claims.repository.ts): counts the attempt and sets the lease in one statement.
     */
    claimDue: (limit: number, leaseMs: number, plan?: ClaimPlan): Promise<ClaimedDelivery[]> =>
      claimDue(db, limit, leaseMs, plan),

    /**
     * Gives a claim back untried, due again after `delayMs`; the attempt is not counted. The
     * dispatcher claims only what it has slots for (delivery-claims.repository.ts), so this is its
     * safety net, not the way a busy host or owner waits.
     */
    async release(claim: Pick<ClaimedDelivery, 'id' | 'attempts'>, delayMs: number): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          attempts: eb('attempts', '-', 1),
          locked_until: null,
          next_attempt_at: fromNow(delayMs),
        }))
        .where('id', '=', claim.id)
        .where('attempts', '=', claim.attempts)
        .where('status', '=', 'pending')
        .execute();
    },

    /**
     * Records an attempt and its consequence: delivered, retried after `retryInMs`, or
     * given up (`'give-up'`). Fenced by the claiming attempt: a dispatcher whose lease ran
     * out cannot overwrite what the one that took over decided. `givingUp` runs in the same
     * transaction when it gives up (the hook disabled, its owner told): a delivery is never
     * left failed with its hook still enabled. A resend asked for during the attempt
     * (hooks.repository.ts `resend`) wins over `next`: the attempt is recorded and the
     * delivery is due again at once, on a fresh schedule, neither settled nor given up.
     * True when `next` was recorded; false when the attempt was fenced out, or recorded but
     * a resend decided what follows.
     */
    async record(
      claim: Pick<ClaimedDelivery, 'id' | 'attempts' | 'hook_id'>,
      outcome: AttemptOutcome,
      next: 'delivered' | 'give-up' | number,
      givingUp?: (tx: Tx) => Promise<void>,
    ): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        // Giving up writes the hook too: its row is locked before the delivery's, the order
        // a hook's deletion takes them in (the hook, then its deliveries by the cascade).
        // The other way round, a DELETE of the hook and a give-up deadlocked (a 500).
        if (next === 'give-up' && givingUp)
          await trx
            .selectFrom('hooks')
            .select('id')
            .where('id', '=', claim.hook_id)
            .forUpdate()
            .execute();
        const updated = await trx
          .updateTable('webhook_deliveries')
          .set(settled(outcome, next))
          .where('id', '=', claim.id)
          .where('attempts', '=', claim.attempts)
          .where('status', '=', 'pending')
          .returning(RESENT.as('resent'))
          .executeTakeFirst();
        if (!updated) return false;
        await trx
          .insertInto('webhook_attempts')
          .values({
            id: newId(),
            delivery_id: claim.id,
            attempt: claim.attempts,
            status_code: outcome.statusCode,
            // What the receiver (or its network) said: any text, NUL included.
            error: outcome.error === null ? null : storableText(outcome.error, MAX_TEXT),
            duration_ms: Math.round(outcome.durationMs),
            response: outcome.response === null ? null : storableText(outcome.response, MAX_TEXT),
          })
          .execute();
        if (updated.resent) return false;
        if (next === 'give-up' && givingUp) await givingUp(trx);
        return true;
      });
    },
  };
}

export type DeliveriesRepository = ReturnType<typeof deliveriesRepository>;
