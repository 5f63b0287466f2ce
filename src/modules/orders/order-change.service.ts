/**
 * Changing an order (`PUT`/`PATCH /api/orders/{id}`): customer details and notes, and, when
 * `items` is given, the items it keeps (by id; an entry keeps what it leaves out; moved,
 * resized or re-typed ones repriced at today's prices), adds (no id) and drops (live ones
 * not listed are canceled). All or nothing, seats moved through the events module's seat
 * interface under the same locks as a booking.
 */
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { accessOf, type Access } from '../../domain/access.js';
import { isAdmin, type Caller } from '../../domain/caller.js';
import { DomainError, forbidden, invalid, notFound } from '../../domain/errors.js';
import { eventsFacade, departureKey, type SeatDelta } from '../events/index.js';
import { experiencesFacade, type BookableExperience } from '../experiences/index.js';
import type { Recorder } from '../idempotency/index.js';
import {
  customerEmailOf,
  departureOf,
  planItems,
  sellerOf,
  type BookingItemInput,
  type PlannedItem,
} from './booking.js';
import { openedByHand } from './booking-request.js';
import { ITEM_STATUS, STAFF_STATUSES, holdsSeats } from './item-status.js';
import { readLineItems } from './line-items.js';
import {
  addSeats,
  checkItemIds,
  completeItemInputs,
  customerMayChange,
  sameLines,
  seatsHeld,
  type Place,
} from './order-changes.js';
import { commitChange, itemRow, type ChangeWork } from './order-writes.js';
import { maySee, type OrdersContext } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';
import type { OrderItemRow, OrderRow, OrderView, UpdateOrderInput } from './orders.schemas.js';
import type { DemographicLine } from './pricing.js';

export type ItemEntry = Omit<NonNullable<UpdateOrderInput['items']>[number], 'lineItems'> & Place;

/**
 * The order's items after the change, and the seats, rows and inserts it takes (also what a
 * reseller's change of its booking plans: reseller-changes.service.ts).
 */
export async function reviseItems(
  ctx: OrdersContext,
  tx: Tx,
  order: OrderRow,
  before: readonly OrderItemRow[],
  inputs: readonly ItemEntry[],
  asked: { access: Access; staff: boolean; experiences: Map<string, BookableExperience> },
) {
  const existing = checkItemIds(before, inputs);
  // 404 for an experience the caller may not see; one seller and currency for all items.
  sellerOf(inputs, asked);
  inputs.forEach((input, index) => {
    const experience = asked.experiences.get(input.experience.id)!;
    if (experience.sellerId !== order.seller_id || experience.currency !== order.currency)
      throw invalid(
        'body',
        `items.${index}.experience.id`,
        `must be an experience of the order's seller in ${order.currency}`,
      );
  });
  const defaultStatus =
    order.payment_method === 'later' ? ITEM_STATUS.payLater : ITEM_STATUS.confirmed;
  const rowsAfter = new Map<string, OrderItemRow>();
  const toPlan: { input: BookingItemInput; index: number; current?: OrderItemRow }[] = [];
  // Seats of items kept as they are count towards each departure's group size too.
  const keptSeats = new Map<string, number>();
  for (const [index, input] of inputs.entries()) {
    const current = input.id === undefined ? undefined : existing.get(input.id)!;
    const lines = current?.demographics as unknown as DemographicLine[] | undefined;
    const sameDeparture =
      current !== undefined &&
      current.experience_id === input.experience.id &&
      current.arrival === input.arrival &&
      current.arrival_time === input.arrivalTime &&
      (input.quantity === undefined || input.quantity === current.quantity) &&
      (input.demographics === undefined || sameLines(lines!, input.demographics));
    if (sameDeparture) {
      const status: number | undefined = input.status;
      if (status !== undefined && status !== current.status) {
        if (!asked.staff && STAFF_STATUSES.includes(status))
          throw forbidden(
            `Only the seller and its reservation staff set status ${String(status)}.`,
          );
        rowsAfter.set(current.id, { ...current, status });
      } else {
        rowsAfter.set(current.id, current);
      }
      if (holdsSeats(rowsAfter.get(current.id)!.status)) {
        const departure = departureOf(input);
        keptSeats.set(departure, (keptSeats.get(departure) ?? 0) + current.quantity);
      }
      continue;
    }
    // Moved or resized: booked again at today's prices, as its guest types unless given.
    const keepsLines = current && input.quantity === undefined && input.demographics === undefined;
    toPlan.push({
      index,
      ...(current ? { current } : {}),
      input: {
        ...input,
        ...(keepsLines
          ? lines!.length > 0
            ? {
                demographics: lines!.map((l) => ({
                  demographic: l.demographic,
                  quantity: l.quantity,
                })),
              }
            : { quantity: current.quantity }
          : {}),
        status: input.status ?? current?.status ?? defaultStatus,
      },
    });
  }
  const wanted = toPlan.map((p) => p.input);
  const scheduling = { experiences: asked.experiences };
  const planned = planItems(
    wanted,
    {
      ...scheduling,
      openedByHand: await openedByHand(ctx, tx, wanted, scheduling),
      now: ctx.now(),
    },
    asked.staff,
    defaultStatus,
    toPlan.map((p) => p.index),
    toPlan.map((p) => p.input.status === p.current?.status),
    keptSeats,
  );
  const eventAt = await eventsFacade.seats.eventsAt(tx, order.seller_id, planned);
  const eventOf = (item: PlannedItem) => eventAt.get(departureKey(item.experience.id, item.start))!;
  const added: OrderItemRow[] = [];
  const deltas = new Map<string, SeatDelta>();
  for (const item of planned) {
    const { current } = toPlan.find((p) => p.index === item.index)!;
    const row = current
      ? itemRow(item, order, eventOf(item), current.id, current.ticket_code)
      : itemRow(item, order, eventOf(item));
    if (current) rowsAfter.set(current.id, row);
    else added.push(row);
    const entry = deltas.get(row.event_id) ?? { delta: 0, item: item.index };
    entry.shown = item.experience;
    deltas.set(row.event_id, entry);
  }
  // Live items the request does not list are dropped: canceled, their seats given back.
  for (const item of before) {
    if (!rowsAfter.has(item.id))
      rowsAfter.set(
        item.id,
        holdsSeats(item.status) ? { ...item, status: ITEM_STATUS.canceled } : item,
      );
  }
  const after = [...before.map((i) => rowsAfter.get(i.id)!), ...added];
  addSeats(addSeats(deltas, seatsHeld(before), -1), seatsHeld(after), 1);
  for (const [eventId, entry] of deltas) if (entry.delta === 0) deltas.delete(eventId);
  const changed = before.filter((i) => rowsAfter.get(i.id) !== i);
  return { after, work: { changed, added, deltas } };
}

/** Changes an order, as its customer or the seller's staff; the order after the change. */
export async function change(
  ctx: OrdersContext,
  caller: Caller,
  id: string,
  input: UpdateOrderInput,
  record: Recorder,
): Promise<OrderView> {
  const access = accessOf(caller);
  const email = customerEmailOf(input);
  const given = (input.items ?? []).map((item, i) => readLineItems(item, `items.${i}`));
  const ids = [...new Set(given.flatMap((i) => (i.experience ? [i.experience.id] : [])))];
  const rows = ids.length > 0 ? await experiencesFacade.findMany(ctx.db, ids) : [];
  return inTransaction(ctx.db, async (tx) => {
    const orders = ordersRepository(tx);
    const order = await orders.lock(id);
    if (!order || !maySee(access, order)) throw notFound(`Order ${id}`);
    if (order.status === 'canceled')
      throw new DomainError('already_canceled', `Order ${id} is canceled.`);
    const staff = access.can('orders', order.seller_id);
    const before = (await orders.itemsOf([id])).get(id) ?? [];
    if (!staff) customerMayChange(before, ctx.now());
    const fields: Partial<OrderRow> = {
      ...(input.customerName !== undefined ? { customer_name: input.customerName.trim() } : {}),
      ...(email !== undefined ? { customer_email: email } : {}),
      ...(input.phone !== undefined ? { phone: input.phone?.trim() || null } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
    };
    let after: OrderItemRow[] = before;
    let work: ChangeWork = { changed: [], added: [], deltas: new Map() };
    if (input.items) {
      const items = completeItemInputs(before, given);
      // Experiences of items named by id only: those of the order, read in its transaction.
      const known = new Map(rows.map((e) => [e.id, e]));
      const kept = [...new Set(items.map((i) => i.experience.id))].filter((e) => !known.has(e));
      for (const e of kept.length > 0 ? await experiencesFacade.findMany(tx, kept) : [])
        known.set(e.id, e);
      ({ after, work } = await reviseItems(ctx, tx, order, before, items, {
        access,
        staff,
        experiences: known,
      }));
    }
    const changed = await commitChange(
      ctx,
      tx,
      order,
      before,
      after,
      { id: caller.id, reason: 'change' },
      {
        ...work,
        fields,
        ...(input.amount !== undefined ? { expected: input.amount } : {}),
        confirmAs: {
          id: caller.id,
          email: caller.email,
          capped: !staff,
          operator: isAdmin(caller),
        },
        // A customer changes no item whose guests are on board.
        byCustomer: !staff,
      },
    );
    await record(tx, { status: 200, body: changed });
    return changed;
  });
}
