/**
 * The check-in desk (docs/operations-day.md): a scan checks in the guests its code names
 * (checkin-rules.ts), an undo puts a guest back to pending (not one whose seat was canceled),
 * and Xola's `modify` sets every live guest of an order at once (checking in only guests of
 * confirmed items, as a scan). Each runs under the order's lock, as every change of an
 * order does, records its check-ins (the dock's audit trail), and emits `order.update` with
 * the audit of the guests' statuses, so webhooks see it.
 */
import { creationTime } from '../../db/creation-clock.js';
import type { Db } from '../../db/database.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import type { GuestStatus } from '../../db/types.js';
import { accessOf, type Access } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, forbidden, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { ordersFacade, type GuestRecord, type OrderView } from '../orders/index.js';
import { ref } from '../shared/index.js';
import { usersFacade } from '../users/index.js';
import {
  confirmedSeat,
  factsOf,
  liveGuests,
  newCheckin,
  notConfirmed,
  pickGuests,
  toCheckinView,
} from './checkin-rules.js';
import { checkinList } from './checkins.list.js';
import { checkinsRepository, type CheckinWithBooking } from './checkins.repository.js';
import type { CheckinInput, CheckinResultView, CheckinView } from './checkins.schemas.js';

export interface CheckinsDeps {
  db: Db;
  /** Where each check-in's `order.update` goes, in its transaction. */
  domainEvents?: EventSink;
  now?: () => Date;
}

/** 409 already_checked_in, naming when and by whom (the account's name, if it still exists). */
async function alreadyCheckedIn(tx: Tx, guest: GuestRecord): Promise<DomainError> {
  const by = guest.checkedInBy ? await usersFacade.find(tx, guest.checkedInBy) : undefined;
  const at = guest.checkedInAt!.toISOString();
  return new DomainError(
    'already_checked_in',
    `This guest was checked in at ${at}${by ? ` by ${by.name}` : ''}.`,
    {
      guest: ref(guest.id),
      checkedInAt: at,
      checkedInBy: by ? { id: by.id, name: by.name } : null,
    },
  );
}

/** The order's view read again after its guests changed (in the same transaction). */
const reread = async (tx: Tx, orderId: string): Promise<OrderView> =>
  (await ordersFacade.find(tx, orderId))!.order;

/** What a code names that the caller may check in: exactly one thing, or 404 / 409. */
async function resolve(db: Db, access: Access, input: CheckinInput) {
  const matches = (
    await ordersFacade.guests.findCode(db, input.code, access.sellersFor('checkins'))
  ).filter(
    (m) => access.can('checkins', m.sellerId) && (!input.seller || m.sellerId === input.seller.id),
  );
  // Another seller's code is answered exactly as a code nobody has.
  if (matches.length === 0) throw notFound('No ticket or booking with this code');
  if (matches.length > 1)
    throw new DomainError(
      'ambiguous_code',
      'Bookings of several of your sellers have this short code: send seller: {id} with it.',
    );
  return matches[0]!;
}

/** A check-in of the trail as the API shows it (its booking read with it). */
function trailView(row: CheckinWithBooking): CheckinView {
  const lines = row.item_demographics as { demographic: { id: string }; label: string }[];
  return toCheckinView(row, {
    ticketCode: row.ticket_code,
    demographicId: row.demographic_id,
    guestType: lines.find((l) => l.demographic.id === row.demographic_id)?.label ?? null,
    shortCode: row.short_code,
    customerName: row.customer_name,
    itemId: row.item_id,
    arrival: row.arrival,
    arrivalTime: row.arrival_time,
  });
}

/** The check-ins a caller sees: those of the sellers it checks guests in for. */
function trailScope(access: Access): Scope {
  const sellers = access.sellersFor('checkins');
  return sellers === 'all' ? 'all' : { anyOf: [{ field: 'seller', in: [...sellers] }] };
}

export function checkinsService(deps: CheckinsDeps) {
  const { db } = deps;
  const domainEvents = deps.domainEvents ?? noEvents;
  const now = deps.now ?? (() => new Date());

  /** `order.update` for a change of guests' statuses, with its audit. */
  const emit = (tx: Tx, actorId: string, before: OrderView, after: OrderView) =>
    emitChange(domainEvents, tx, {
      name: 'order.update',
      sellerId: after.seller.id,
      actorId,
      after,
      before,
    });

  const list = (caller: Caller, query: Record<string, unknown>) =>
    runList(
      checkinList,
      { path: '/api/checkins', query, scope: trailScope(accessOf(caller)) },
      checkinsRepository(db).listSource(),
      (rows) => rows.map(trailView),
    );

  return {
    /** `GET /api/checkins`: the dock's trail, in the query language (undone ones too). */
    list,

    /** `GET /api/checkins/{id}`: one, if the caller checks guests in for its seller. */
    async get(caller: Caller, id: string): Promise<CheckinView> {
      const [found] = (await list(caller, { id })).data;
      if (!found) throw notFound(`Check-in ${id}`);
      return found;
    },

    /** `POST /api/checkins`: the guests a scanned code names, checked in. */
    async scan(caller: Caller, input: CheckinInput): Promise<CheckinResultView> {
      const match = await resolve(db, accessOf(caller), input);
      return inTransaction(db, async (tx) => {
        const locked = await ordersFacade.guests.lockOrder(tx, match.orderId);
        if (!locked) throw notFound('No ticket or booking with this code');
        const picked = pickGuests(match, locked.order, locked.timezones, locked.guests, {
          now: now(),
          force: input.force ?? false,
        });
        if ('alreadyIn' in picked) throw await alreadyCheckedIn(tx, picked.alreadyIn);
        const at = creationTime();
        const rows = picked.guests.map((g) => newCheckin(g, 'scan', at, caller.id));
        await ordersFacade.guests.setStatus(
          tx,
          match.orderId,
          picked.guests.map((g) => g.id),
          'arrived',
          at,
          caller.id,
        );
        await checkinsRepository(tx).insert(rows);
        const after = await reread(tx, match.orderId);
        await emit(tx, caller.id, locked.order, after);
        return {
          object: 'checkin_result',
          checkins: rows.map((row, i) => toCheckinView(row, factsOf(picked.guests[i]!, after))),
        };
      });
    },

    /** `DELETE /api/checkins/{id}`: the guest back to pending; the record stays, undone. */
    async undo(caller: Caller, id: string): Promise<CheckinView> {
      const access = accessOf(caller);
      const found = await checkinsRepository(db).findById(id);
      if (!found || !access.can('checkins', found.seller_id)) throw notFound(`Check-in ${id}`);
      return inTransaction(db, async (tx) => {
        const locked = (await ordersFacade.guests.lockOrder(tx, found.order_id))!;
        // Read again under the order's lock: an undo that raced this one has won.
        const record = (await checkinsRepository(tx).findById(id))!;
        const guest = locked.guests.find((g) => g.id === record.guest_id)!;
        // A guest whose seat was given back is expected nowhere: its check-in was undone with
        // its seat, and one left live by an older release is not undone on a canceled order.
        if (guest.canceledAt !== null)
          throw new DomainError('guest_canceled', "This guest's seat was canceled.", {
            guest: ref(guest.id),
          });
        if (record.undone_at !== null) throw notFound(`Check-in ${id} (it was undone)`);
        const at = creationTime();
        await checkinsRepository(tx).undo([id], at, caller.id);
        await ordersFacade.guests.setStatus(tx, record.order_id, [guest.id], 'pending', at, null);
        const after = await reread(tx, record.order_id);
        await emit(tx, caller.id, locked.order, after);
        return toCheckinView(
          { ...record, undone_at: at, undone_by: caller.id },
          factsOf(guest, after),
        );
      });
    },

    /**
     * Xola's `POST /api/orders/{id}/modify` `{updates: {guestStatus}}`: every live guest of
     * the order set to it (those arriving get a check-in each, those leaving `arrived` have
     * theirs undone). The seller and its reservation staff: it answers the whole order.
     */
    async modify(caller: Caller, orderId: string, status: GuestStatus): Promise<OrderView> {
      const access = accessOf(caller);
      return inTransaction(db, async (tx) => {
        const locked = await ordersFacade.guests.lockOrder(tx, orderId);
        const { order } = locked ?? {};
        if (!locked || !order) throw notFound(`Order ${orderId}`);
        const staff = access.can('orders', order.seller.id);
        if (!staff && order.customer?.id !== caller.id) throw notFound(`Order ${orderId}`);
        if (!staff)
          throw forbidden("Only the seller and its reservation staff set an order's guests.");
        if (order.status === 'canceled')
          throw new DomainError('already_canceled', `Order ${orderId} is canceled.`);
        const changing = liveGuests(order, locked.guests, now()).filter(
          (g) => g.guestStatus !== status,
        );
        if (changing.length === 0) return order;
        // As a scan: nobody of an unconfirmed item checks in (checkin-rules.ts confirmedSeat).
        const unconfirmed = changing.filter((g) => !confirmedSeat(order, g));
        if (status === 'arrived' && unconfirmed.length > 0) throw notConfirmed(order, unconfirmed);
        const at = creationTime();
        const checkins = checkinsRepository(tx);
        const leaving = changing.filter((g) => g.guestStatus === 'arrived').map((g) => g.id);
        const open = await checkins.liveOf(leaving);
        await checkins.undo(
          open.map((c) => c.id),
          at,
          caller.id,
        );
        const ids = changing.map((g) => g.id);
        await ordersFacade.guests.setStatus(tx, orderId, ids, status, at, caller.id);
        if (status === 'arrived')
          await checkins.insert(changing.map((g) => newCheckin(g, 'modify', at, caller.id)));
        const after = await reread(tx, orderId);
        await emit(tx, caller.id, order, after);
        return after;
      });
    },
  };
}

export type CheckinsService = ReturnType<typeof checkinsService>;
