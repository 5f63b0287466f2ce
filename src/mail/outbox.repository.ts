/**
 * All SQL on the outbox table: enqueueing (inside the caller's transaction), claiming due
 * messages with a lease, recording the outcome, listing what has not been sent, and queueing
 * failed messages again. An invitation's sealed token (`secret`) is cleared once its message
 * is sent or skipped; a failed one keeps it, so `cli outbox retry` can still send it.
 *
 * Every time comparison uses the database's clock (`now()`), never the process's: it is the
 * one clock that all instances sharing the database agree on.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { ago, fromNow, idsMadeBefore } from '../db/db-clock.js';
import { newId } from '../db/ids.js';
import { deleteOldest } from '../db/prune-batch.js';
import { storableText } from '../db/storable-text.js';
import type { DB, OutboxTable } from '../db/types.js';
import { write } from '../db/write-batch.js';

export type OutboxRow = Selectable<OutboxTable>;

/** What a claim hands back: the row, with `attempts` already counting this attempt. */
export type ClaimedMessage = OutboxRow;

/** Outcome records are fenced by the attempt that claimed the row (see markFailed). */
export type ClaimRef = Pick<OutboxRow, 'id' | 'attempts'>;

const MAX_ERROR_LENGTH = 1000;

export type MailKind = OutboxTable['kind'];

type NewMessage = Parameters<typeof enqueue>[1];

const queuedRow = (message: NewMessage) => ({
  id: newId(),
  kind: message.kind ?? 'order_confirmation',
  order_id: message.orderId ?? null,
  hook_id: message.hookId ?? null,
  recipient: message.recipient,
  sender_id: message.senderId ?? null,
});

const queued = (db: Kysely<DB>, row: ReturnType<typeof queuedRow>) =>
  db
    .insertInto('outbox')
    .values(row)
    .onConflict((oc) => oc.columns(['order_id', 'kind']).doNothing());

/**
 * Queues an email as `enqueue` does, when its id is not needed: sent with the rest of an
 * open write batch (db/write-batch.ts), at once otherwise. Its text is the same for every
 * message, so a batch binds the row's values without building the query (db/write-shapes.ts,
 * which checks them against Kysely's on first use).
 */
export async function queue(db: Kysely<DB>, message: NewMessage): Promise<void> {
  const row = queuedRow(message);
  await write(db, {
    shape: 'outbox: queued once per order and kind',
    parameters: Object.values(row),
    query: () => queued(db, row),
  });
}

/**
 * Queues an email. Pass the transaction of the change that causes it: the row then exists
 * exactly when the change does. An order's email of a kind is queued once (a unique index):
 * a second call returns the id of the message already queued.
 */
export async function enqueue(
  db: Kysely<DB>,
  message: {
    kind?: MailKind;
    orderId?: string;
    hookId?: string;
    recipient: string;
    senderId?: string | null;
  },
): Promise<string> {
  const kind = message.kind ?? 'order_confirmation';
  const inserted = await queued(db, queuedRow(message)).returning('id').executeTakeFirst();
  if (inserted) return inserted.id;
  const existing = await db
    .selectFrom('outbox')
    .select('id')
    .where('order_id', '=', message.orderId!)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return existing.id;
}

/**
 * Queues an invitation email with its token sealed (`secret`), after skipping the earlier
 * invitation emails of the same invitation not being sent: their tokens are void.
 */
export async function queueInvitation(
  db: Kysely<DB>,
  message: { id: string; delegateId: string; recipient: string; senderId: string; secret: Buffer },
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ status: 'skipped', secret: null })
    .where('delegate_id', '=', message.delegateId)
    .where('kind', '=', 'delegate_invitation')
    .where('status', '=', 'pending')
    .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', sql<Date>`now()`)]))
    .execute();
  await db
    .insertInto('outbox')
    .values({
      id: message.id,
      kind: 'delegate_invitation',
      delegate_id: message.delegateId,
      recipient: message.recipient,
      sender_id: message.senderId,
      secret: message.secret,
    })
    .execute();
}

/** The sealed invitation tokens still waiting to be sent, in id order (`cli rotate-secret`). */
export async function sealedInvitationTokens(
  db: Kysely<DB>,
  afterId: string,
  limit: number,
): Promise<{ id: string; sealed: Buffer }[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['id', 'secret'])
    .where('secret', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, sealed: row.secret! }));
}

/** A resealed invitation token written back, unless its message has been settled meanwhile. */
export async function writeSealedInvitationToken(
  db: Kysely<DB>,
  id: string,
  sealed: Buffer,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ secret: sealed })
    .where('id', '=', id)
    .where('secret', 'is not', null)
    .execute();
}

/**
 * On cancellation: a confirmation not yet sent nor being sent is never sent (`skipped`).
 * Returns what became of the order's confirmation: `skipped` now, `none` if there was
 * none, or the address it went to when it was sent, is being sent, or failed (the customer
 * may have it): the one address a cancellation may go to, whatever the order says now (a
 * customer who changed it to a stranger's before cancelling had us mail the stranger).
 */
export async function settleConfirmation(
  db: Kysely<DB>,
  orderId: string,
): Promise<'skipped' | 'none' | { out: string }> {
  const skipped = await db
    .updateTable('outbox')
    .set({ status: 'skipped' })
    .where('order_id', '=', orderId)
    .where('kind', '=', 'order_confirmation')
    .where('status', '=', 'pending')
    .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  if (skipped.numUpdatedRows > 0n) return 'skipped';
  const sent = await outboxRepository(db).find(orderId, 'order_confirmation');
  return sent === undefined || sent.status === 'skipped' ? 'none' : { out: sent.recipient };
}

/**
 * An order's confirmation, queued and not claimed (nor sent), to `recipient` instead, caused
 * by `senderId` (what the relay caps count). One being sent keeps its address; the
 * dispatcher skips it, the order's address no longer being the one it was queued for.
 */
export async function readdressConfirmation(
  db: Kysely<DB>,
  orderId: string,
  recipient: string,
  senderId: string | null,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({ recipient, sender_id: senderId })
    .where('order_id', '=', orderId)
    .where('kind', '=', 'order_confirmation')
    .where('status', '=', 'pending')
    .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', sql<Date>`now()`)]))
    .execute();
}

/**
 * How many emails an account caused to addresses other than `ownEmail` in the last hour
 * (the database's clock): what the relay cap counts. Counted under the account's own lock,
 * held until the transaction ends (`db` is the booking's): bookings of one account sent at
 * once each counted before the others' emails were written, and all of them mailed
 * strangers; now each counts those before it. Only a capped account mailing another
 * address comes here, so no other booking waits.
 */
export async function sentToOthersLastHour(
  db: Kysely<DB>,
  senderId: string,
  ownEmail: string,
): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtext(${`relay:${senderId}`}))`.execute(db);
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sender_id', '=', senderId)
    .where((eb) => eb(eb.fn('lower', ['recipient']), '<>', ownEmail.toLowerCase()))
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Invitation emails in the last hour, and how long until the oldest of them leaves it. */
export interface InvitationWindow {
  count: number;
  freeInMs: number;
}

/**
 * The invitation emails an account queued in the last hour (the database's clock): to one
 * address, and in all. Counted under the account's lock, held until the transaction ends,
 * so invitations it sends at once each count those before them. Rows outlive their
 * invitation (migration 0026), so deleting one and inviting again does not wipe the count.
 * Per account, not per address alone: a count of everyone's invitations to an address would
 * tell a seller that others invited it, and let anyone keep an address from being invited.
 */
export async function invitationsLastHour(
  db: Kysely<DB>,
  recipient: string,
  senderId: string,
): Promise<{ toAddress: InvitationWindow; fromSender: InvitationWindow }> {
  const address = recipient.toLowerCase();
  await sql`select pg_advisory_xact_lock(hashtext(${`invite-from:${senderId}`}))`.execute(db);
  const row = await db
    .selectFrom('outbox')
    .select([
      sql<number>`count(*)`.as('all_n'),
      sql<number>`count(*) filter (where lower(recipient) = ${address})`.as('to_n'),
      sql<number>`coalesce(extract(epoch from min(created_at) + interval '1 hour' - now()) * 1000, 0)`.as(
        'all_free',
      ),
      sql<number>`coalesce(extract(epoch from min(created_at) filter (where lower(recipient) = ${address}) + interval '1 hour' - now()) * 1000, 0)`.as(
        'to_free',
      ),
    ])
    .where('kind', '=', 'delegate_invitation')
    .where('sender_id', '=', senderId)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  return {
    toAddress: { count: Number(row.to_n), freeInMs: Number(row.to_free) },
    fromSender: { count: Number(row.all_n), freeInMs: Number(row.all_free) },
  };
}

/**
 * How many confirmations an account or publishable key caused to one address in the last
 * day (the database's clock): what holds a guest checkout's mail to one address. Counted
 * under a lock of the pair, held until the transaction ends, as the relay cap's count is;
 * bookings to other addresses never wait on it.
 */
export async function sentToRecipientLastDay(
  db: Kysely<DB>,
  senderId: string,
  recipient: string,
): Promise<number> {
  const address = recipient.toLowerCase();
  await sql`select pg_advisory_xact_lock(hashtext(${`relay:${senderId}:${address}`}))`.execute(db);
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('sender_id', '=', senderId)
    .where('kind', '=', 'order_confirmation')
    .where((eb) => eb(eb.fn('lower', ['recipient']), '=', address))
    .where('created_at', '>', sql<Date>`now() - interval '1 day'`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A seller's own accounts: the seller and its staff (delegates with an account: accepted, or
 * added by id). Their addresses are the seller's own; their ids, with its publishable keys',
 * are who its confirmations are caused by.
 */
const accountsOf = (db: Kysely<DB>, sellerId: string) =>
  db
    .selectNoFrom(sql<string>`${sellerId}::text`.as('id'))
    .unionAll(
      db
        .selectFrom('delegates')
        .select('user_id as id')
        .where('seller_id', '=', sellerId)
        .where('user_id', 'is not', null)
        .$narrowType<{ id: string }>(),
    );

// A union, not `id = seller or id in (staff)`: PostgreSQL reads the users by primary key for
// it, and walked the whole table for the `or`.
const ownAddresses = (db: Kysely<DB>, sellerId: string) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn<string>('lower', ['email']).as('address'))
    .where('id', 'in', accountsOf(db, sellerId));

/**
 * The seller's daily budget (docs/booking.md, "Not a relay"): `own` when `recipient` is the
 * address of the seller's account or of one of its staff, else how many confirmations of the
 * seller's orders its account, its staff and its publishable keys caused in the last day (the
 * database's clock) to addresses not its accounts'. Counted under the seller's lock, held
 * until the transaction ends, as the relay cap's count is: bookings of the seller sent at
 * once each count those before them. Customers' own bookings are not counted (their
 * account's hourly cap holds their mail to others), nor an admin's (the operator's). Read
 * through the index of each sender's emails: the seller's and its staff's and keys' rows of
 * the day, not the seller's orders.
 */
export async function sellerConfirmationsLastDay(
  db: Kysely<DB>,
  sellerId: string,
  recipient: string,
): Promise<number | 'own'> {
  const address = recipient.toLowerCase();
  const own = await ownAddresses(db, sellerId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address))
    .executeTakeFirst();
  if (own) return 'own';
  await sql`select pg_advisory_xact_lock(hashtext(${`relay-seller:${sellerId}`}))`.execute(db);
  const senders = accountsOf(db, sellerId).unionAll(
    db.selectFrom('publishable_keys').select('id').where('seller_id', '=', sellerId),
  );
  const row = await db
    .selectFrom('outbox as o')
    .innerJoin('orders as r', 'r.id', 'o.order_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('o.kind', '=', 'order_confirmation')
    .where('o.sender_id', 'in', senders)
    .where('o.created_at', '>', sql<Date>`now() - interval '1 day'`)
    .where('r.seller_id', '=', sellerId)
    .where((eb) => eb(eb.fn('lower', ['o.recipient']), 'not in', ownAddresses(db, sellerId)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function outboxRepository(db: Kysely<DB>) {
  return {
    /** Emails waiting to go out, and how long the oldest has waited (metrics; `outbox_unsent`). */
    async pendingStats(): Promise<{ pending: number; oldestSeconds: number }> {
      const row = await db
        .selectFrom('outbox')
        .select((eb) => [
          eb.fn.countAll<number>().as('pending'),
          sql<number | null>`extract(epoch from now() - min(created_at))`.as('oldest'),
        ])
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending), oldestSeconds: Number(row.oldest ?? 0) };
    },

    /**
     * Claims up to `limit` due messages for `leaseMs`: counts the attempt and sets the lease
     * in the same statement. `SKIP LOCKED` makes concurrent claimers (other instances) pass
     * over rows being claimed instead of waiting for them or taking them twice; a row
     * claimed and committed by another is excluded by its lease, which PostgreSQL re-checks
     * on the newest row version before locking.
     */
    async claimDue(limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
      return db
        .updateTable('outbox')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          locked_until: fromNow(leaseMs),
        }))
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('outbox')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', sql<Date>`now()`)
            .where((w) =>
              w.or([w('locked_until', 'is', null), w('locked_until', '<=', sql<Date>`now()`)]),
            )
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(limit)
            .forUpdate()
            .skipLocked(),
        )
        .returningAll()
        .execute();
    },

    /**
     * Records a successful send. Not fenced by the attempt: once the SMTP server accepted the
     * message it has been sent, whichever claim did it, and a later claim's failure must not
     * turn it back into "pending".
     */
    async markSent(id: string): Promise<boolean> {
      const result = await db
        .updateTable('outbox')
        .set({
          status: 'sent',
          sent_at: sql<Date>`now()`,
          locked_until: null,
          last_error: null,
          secret: null,
        })
        .where('id', '=', id)
        .where('status', '<>', 'sent')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Records a failed attempt: retry after `retryInMs` (database time), or give up. Fenced by
     * the claiming attempt, so a claimer whose lease ran out cannot overwrite the schedule of
     * the claim that took over, nor revive a message that has been sent meanwhile. A message
     * given up keeps its sealed token: `cli outbox retry` may send it yet.
     */
    async markFailed(
      claim: ClaimRef,
      error: string,
      retryInMs: number | 'give-up',
    ): Promise<boolean> {
      const result = await db
        .updateTable('outbox')
        .set({
          status: retryInMs === 'give-up' ? 'failed' : 'pending',
          // The SMTP server's reply: any text, NUL included.
          last_error: storableText(error, MAX_ERROR_LENGTH),
          locked_until: null,
          ...(retryInMs === 'give-up' ? {} : { next_attempt_at: fromNow(retryInMs) }),
        })
        .where('id', '=', claim.id)
        .where('attempts', '=', claim.attempts)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Hands a claimed message back without counting its attempt, to be claimed again after
     * `inMs`: nothing was tried (a cancellation waiting for its confirmation, or a claim whose
     * time went on composing). Fenced by the claim, as markFailed is.
     */
    async putBack(claim: ClaimRef, reason: string, inMs: number): Promise<boolean> {
      const result = await db
        .updateTable('outbox')
        .set((eb) => ({
          attempts: eb('attempts', '-', 1),
          last_error: storableText(reason, MAX_ERROR_LENGTH),
          locked_until: null,
          next_attempt_at: fromNow(inMs),
        }))
        .where('id', '=', claim.id)
        .where('attempts', '=', claim.attempts)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Queues failed messages again, as new: due now, attempts back to 0, so they get the whole
     * retry window again (`cli outbox retry`). `ids` unset: every failed message. Returns the
     * ids queued.
     */
    async requeueFailed(ids?: readonly string[]): Promise<string[]> {
      if (ids?.length === 0) return [];
      let query = db
        .updateTable('outbox')
        .set({ status: 'pending', attempts: 0, locked_until: null, next_attempt_at: sql`now()` })
        .where('status', '=', 'failed');
      if (ids) query = query.where('id', 'in', ids);
      const rows = await query.returning('id').execute();
      return rows.map((row) => row.id);
    },

    /** Not sent, on purpose (a confirmation of an order canceled before it went out). */
    async markSkipped(id: string): Promise<void> {
      await db
        .updateTable('outbox')
        .set({ status: 'skipped', locked_until: null, secret: null })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    /** An order's email of a kind (its status and recipient), if there is one. */
    async find(
      orderId: string,
      kind: MailKind,
    ): Promise<Pick<OutboxRow, 'status' | 'recipient'> | undefined> {
      return db
        .selectFrom('outbox')
        .select(['status', 'recipient'])
        .where('order_id', '=', orderId)
        .where('kind', '=', kind)
        .executeTakeFirst();
    },

    /**
     * Deletes up to `limit` settled emails (sent, failed, skipped) older than `ageMs`: every
     * kind but an order's confirmation, which stays while its order does (the cancellation
     * goes to the address it went to), unless it was never sent. Returns how many went.
     */
    async prune(ageMs: number, limit: number): Promise<number> {
      const settled = db
        .selectFrom('outbox')
        .select('id')
        // outbox_settled's own predicate (migrations/0027), so the sweep walks that index.
        .where(sql<boolean>`(kind <> 'order_confirmation' or status = 'skipped')`)
        .where('id', '<', idsMadeBefore(ageMs))
        .where('status', 'in', ['sent', 'failed', 'skipped'])
        .where('created_at', '<', ago(ageMs));
      return deleteOldest(db, 'outbox', settled, limit);
    },

    /** Pending and failed messages, oldest first (for `cli outbox`). */
    async listUnsent(limit = 1000): Promise<OutboxRow[]> {
      return db
        .selectFrom('outbox')
        .selectAll()
        .where('status', 'not in', ['sent', 'skipped'])
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .execute();
    },
  };
}

export type OutboxRepository = ReturnType<typeof outboxRepository>;
