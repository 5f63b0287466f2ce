/**
 * Orders: booking (every item or none, never more seats than an event has), cancelling
 * (which gives the seats back), reading and listing. Each booking and cancellation emits
 * its domain events (`order.create`/`order.cancel`, `event.update` for the seats) in its own
 * transaction; the confirmation email is derived from them (mail/mail.consumer.ts).
 */
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { creationTime } from '../../db/creation-clock.js';
import { newId } from '../../db/ids.js';
import { pollHorizon } from '../../db/poll-horizon.js';
import { inTransaction, type Executor, type Tx } from '../../db/unit-of-work.js';
import { inOneStatement } from '../../db/write-batch.js';
import { accessOf, type Access } from '../../domain/access.js';
import type { Caller, Checkout } from '../../domain/caller.js';
import { DomainError, forbidden, invalid, notFound } from '../../domain/errors.js';
import { fromMinor, minorDigits, toMinor } from '../../domain/money.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { delegatesFacade as delegates } from '../delegates/index.js';
import {
  departureKey,
  seatsOpen,
  type BookingEventsFacade,
  type SeatChange,
} from '../events/index.js';
import type { ExperienceRow, ExperiencesFacade } from '../experiences/index.js';
import type { Recorder } from '../idempotency/index.js';
import { iso, localIso } from '../shared/index.js';
import type { Account, UsersFacade } from '../users/index.js';
import {
  checkAmount,
  customerEmailOf,
  departureOf,
  planBooking,
  planItems,
  sellerOf,
  unscheduled,
  type BookingContext,
  type BookingInput,
  type BookingItemInput,
  type PlannedBooking,
  type PlannedItem,
} from './booking.js';
import { SHORT_CODE_TRIES, newShortCode, newTicketCode } from './booking-codes.js';
import { inBookingOrder } from './item-order.js';
import { ITEM_STATUS, STAFF_STATUSES, holdsSeats, orderStatusOf } from './item-status.js';
import {
  addSeats,
  capacityExceeded,
  checkItemIds,
  completeItemInputs,
  type Place,
  customerMayChange,
  sameLines,
  seatsHeld,
  type SeatDelta,
} from './order-changes.js';
import { orderList } from './orders.list.js';
import { searchTerm, withoutSearch } from './order-search.js';
import {
  itemFromJson,
  type OrderItemRow,
  type OrderQuoteView,
  type OrderRow,
  type OrderView,
  toOrderView,
  type UpdateOrderInput,
} from './orders.schemas.js';
import { ordersRepository, type OrderWithItems } from './orders.repository.js';
import type { DemographicLine } from './pricing.js';
import { lineItemsOf, readLineItems } from './line-items.js';

/** The relay cap on confirmations a customer account causes to others (docs/booking.md). */
export interface RelayCap {
  /** Emails the account caused to addresses other than its own in the last hour. */
  sentToOthersLastHour(tx: Tx, senderId: string, ownEmail: string): Promise<number>;
  /** How many of those a customer account may cause per hour (the relay cap). */
  readonly toOthersPerHour: number;
}

/** Who books: its account, and whether its confirmations to others are capped. */
interface Sender {
  id: string;
  email: string;
  /** Customers are; the seller's staff (their customers' addresses are business) are not. */
  capped: boolean;
}

export interface OrdersServiceDeps {
  db: Db;
  relayCap: RelayCap;
  /** Where `order.*` and seat `event.update` events go, in the change's transaction. */
  domainEvents?: EventSink;
  users: UsersFacade;
  experiences: ExperiencesFacade;
  events: BookingEventsFacade;
  /** How long a hold (item status 103) keeps its seats unconfirmed. */
  holdMs?: number;
  /** The clock skew the pollers' horizon allows for (db/poll-horizon.ts). */
  pollMarginMs?: number;
  now?: () => Date;
}

/** What a caller sees in the list: the orders it booked, and those of sellers it staffs. */
export function ordersScope(caller: Caller): Scope {
  const sellers = accessOf(caller).sellersFor('orders');
  if (sellers === 'all') return 'all';
  return {
    anyOf: [
      { field: 'seller', in: sellers },
      { field: 'customer', in: [caller.id] },
    ].filter((a) => a.in.length > 0),
  };
}

export function ordersService({
  db,
  relayCap,
  domainEvents = noEvents,
  users,
  experiences,
  events,
  holdMs = 15 * 60_000,
  pollMarginMs = 1000,
  now = () => new Date(),
}: OrdersServiceDeps) {
  const repo = ordersRepository(db);
  const hasBookedWith = (executor: Executor, customerId: string, sellerId: string) =>
    ordersRepository(executor).hasCustomerAtSeller(customerId, sellerId);

  const view = (row: OrderWithItems): OrderView => toOrderView(row, row.items.map(itemFromJson));

  /**
   * The account a booking may name as its customer: the caller itself, or one the seller
   * already knows (it booked with the seller before, or is its delegate by id).
   */
  async function attachable(customerId: string, caller: Caller, sellerId: string | undefined) {
    if (customerId === caller.id) return users.find(db, customerId);
    if (!sellerId) return undefined;
    const known =
      (await hasBookedWith(db, customerId, sellerId)) ||
      (await delegates.isKnownDelegate(db, sellerId, customerId));
    return known ? users.find(db, customerId) : undefined;
  }

  /** Customers see the orders they booked; sellers and their reservation staff, the seller's. */
  const maySee = (access: Access, order: OrderRow): boolean =>
    order.customer_id === access.caller.id || access.can('orders', order.seller_id);

  /**
   * Whether a customer account has already caused its hour's share of confirmations to
   * addresses not its own: then the booking stands and the email is not sent (docs/booking.md).
   */
  async function overRelayCap(trx: Tx, recipient: string, sender: Sender): Promise<boolean> {
    if (!sender.capped || recipient.toLowerCase() === sender.email.toLowerCase()) return false;
    const sent = await relayCap.sentToOthersLastHour(trx, sender.id, sender.email);
    return sent >= relayCap.toOthersPerHour;
  }

  /** Each event whose seats changed is an `event.update`. */
  async function emitSeatChanges(
    trx: Tx,
    sellerId: string,
    actorId: string | null,
    changes: readonly SeatChange[],
  ): Promise<void> {
    for (const change of changes) {
      await domainEvents.emit(trx, { name: 'event.update', sellerId, actorId, ...change });
    }
  }

  /**
   * Moves seats: takes (positive) or gives back (negative) each event's delta, in one fixed
   * order (by event id) so that two bookings or changes never wait on each other in a cycle.
   * A take that does not fit answers 409 capacity_exceeded, naming the first item asking.
   */
  async function moveSeats(trx: Tx, deltas: ReadonlyMap<string, SeatDelta>): Promise<SeatChange[]> {
    const changes: SeatChange[] = [];
    for (const eventId of [...deltas.keys()].sort()) {
      const { delta, item, shown } = deltas.get(eventId)!;
      if (delta < 0) changes.push(await events.release(trx, eventId, -delta));
      if (delta <= 0) continue;
      const change = await events.reserve(trx, eventId, delta, shown!);
      if (change) {
        changes.push(change);
        continue;
      }
      const seatsLeft = await events.seatsLeft(trx, eventId);
      throw capacityExceeded(item, seatsLeft ?? 0, delta, { id: eventId });
    }
    return changes;
  }

  /**
   * The event of each planned item, found or made in one fixed order (experience, start);
   * a made one gets its guides when the experience asks for auto-assignment.
   */
  async function eventsOf(trx: Tx, sellerId: string, items: readonly PlannedItem[]) {
    const eventOf = new Map<number, string>();
    const byStart = [...items].sort(
      (a, b) =>
        a.experience.id.localeCompare(b.experience.id) || a.start.getTime() - b.start.getTime(),
    );
    for (const item of byStart) {
      const { id, created } = await events.findOrCreate(trx, {
        id: newId(),
        experience_id: item.experience.id,
        seller_id: sellerId,
        starts_at: item.start,
        ends_at: new Date(item.start.getTime() + item.experience.duration * 60_000),
        max: item.experience.outing_max,
      });
      // Before its seats are taken, so the event.update of the seats shows its guides.
      if (created)
        await events.staffNewEvent(trx, id, experiences.guidePreferencesOf(item.experience));
      eventOf.set(item.index, id);
    }
    return eventOf;
  }

  /**
   * A new booking's seats: for each departure its items ask (in one fixed order,
   * experience then start, so two bookings never wait on each other in a cycle), the event
   * found or made and the seats taken, in one statement in the usual case. When that
   * statement took nothing, or was not tried because the experience staffs its new events
   * (their guides must be on them before the seats' `event.update`), the departure is read
   * afresh: one without room is refused at once (409 capacity_exceeded, naming the first
   * item asking for it); one with room was made or freed by a concurrent booking the
   * statement could not see, and is reserved; a missing one is made, then reserved.
   */
  async function takeSeats(trx: Tx, sellerId: string, items: readonly PlannedItem[]) {
    const departures = new Map<string, { first: PlannedItem; quantity: number }>();
    const byStart = [...items].sort(
      (a, b) =>
        a.experience.id.localeCompare(b.experience.id) || a.start.getTime() - b.start.getTime(),
    );
    for (const item of byStart) {
      const key = departureKey(item.experience.id, item.start);
      const departure = departures.get(key) ?? { first: item, quantity: 0 };
      departure.quantity += item.quantity;
      departures.set(key, departure);
    }
    const eventAt = new Map<string, string>();
    const changes: SeatChange[] = [];
    for (const [key, { first, quantity }] of departures) {
      const event = {
        id: newId(),
        experience_id: first.experience.id,
        seller_id: sellerId,
        starts_at: first.start,
        ends_at: new Date(first.start.getTime() + first.experience.duration * 60_000),
        max: first.experience.outing_max,
      };
      const staffing = experiences.guidePreferencesOf(first.experience);
      const taken = staffing?.autoAssign
        ? null
        : await events.takeSeatsAt(trx, event, quantity, first.experience);
      if (taken) {
        eventAt.set(key, taken.id);
        changes.push(taken.change);
        continue;
      }
      const found = await events.seatsAtDeparture(trx, first.experience.id, first.start);
      if (found && found.seatsLeft !== null && found.seatsLeft < quantity)
        throw capacityExceeded(first.index, found.seatsLeft, quantity, { id: found.id });
      let id = found?.id;
      if (!id) {
        const made = await events.findOrCreate(trx, event);
        id = made.id;
        if (made.created) await events.staffNewEvent(trx, id, staffing);
      }
      const change = await events.reserve(trx, id, quantity, first.experience);
      if (!change) {
        const seatsLeft = await events.seatsLeft(trx, id);
        throw capacityExceeded(first.index, seatsLeft ?? 0, quantity, { id });
      }
      eventAt.set(key, id);
      changes.push(change);
    }
    const eventOf = (item: PlannedItem) =>
      eventAt.get(departureKey(item.experience.id, item.start))!;
    return { eventOf, changes };
  }

  const itemRow = (
    item: PlannedItem,
    order: Pick<OrderRow, 'id' | 'seller_id' | 'customer_id'>,
    eventId: string,
    id = newId(),
    ticketCode = newTicketCode(),
  ): OrderItemRow => ({
    id,
    order_id: order.id,
    seller_id: order.seller_id,
    customer_id: order.customer_id,
    experience_id: item.experience.id,
    event_id: eventId,
    name: item.experience.name,
    arrival: item.arrival,
    arrival_time: item.arrivalTime,
    arrival_datetime: item.start,
    timezone: item.experience.timezone,
    quantity: item.quantity,
    price: item.price,
    amount: item.amount,
    status: item.status,
    ticket_code: ticketCode,
    demographics: item.lines as unknown as OrderItemRow['demographics'],
    // Numbered by inBookingOrder when the order is written.
    position: 0,
  });

  /** The order's fields that follow from its items. */
  function derived(
    items: readonly OrderItemRow[],
    currency: string,
    holdUntil: Date | null,
    at: Date,
  ) {
    const live = items.filter((i) => holdsSeats(i.status));
    const digits = minorDigits(currency);
    return {
      status: orderStatusOf(items.map((i) => i.status)),
      arrival: (live.length > 0 ? live : items).map((i) => i.arrival).sort()[0]!,
      amountMinor: live.reduce((sum, i) => sum + toMinor(i.amount, digits), 0n),
      hold_expires_at: live.some((i) => i.status === ITEM_STATUS.hold)
        ? (holdUntil ?? new Date(at.getTime() + holdMs))
        : null,
    };
  }

  /** Writes a checked booking: events found or made, seats taken, order and email stored. */
  async function write(trx: Tx, plan: PlannedBooking, sender: Sender): Promise<OrderView> {
    const { eventOf, changes } = await takeSeats(trx, plan.sellerId, plan.items);

    // The creation clock, inside the transaction (db/creation-clock.ts).
    const stamp = creationTime();
    const orderId = newId();
    const owner = { id: orderId, seller_id: plan.sellerId, customer_id: plan.customerId };
    const items = inBookingOrder(
      [],
      plan.items.map((item) => itemRow(item, owner, eventOf(item))),
    );
    const facts = derived(items, plan.currency, null, stamp);
    const order: OrderRow = {
      ...owner,
      customer_name: plan.customerName,
      customer_email: plan.customerEmail,
      phone: plan.phone,
      source: plan.source,
      status: facts.status,
      short_code: '',
      arrival: facts.arrival,
      amount: plan.amount,
      currency: plan.currency,
      payment_method: plan.paymentMethod,
      notes: plan.notes,
      adjustments: [],
      hold_expires_at: facts.hold_expires_at,
      created_at: stamp,
      updated_at: stamp,
    };
    const orders = ordersRepository(trx);
    order.short_code = newShortCode();
    await orders.insert(order);
    await orders.insertItems(items);
    const view = toOrderView(order, items);
    const sendConfirmation =
      !!plan.customerEmail && !(await overRelayCap(trx, plan.customerEmail, sender));
    await domainEvents.emit(trx, {
      name: 'order.create',
      sellerId: plan.sellerId,
      actorId: sender.id,
      object: view,
      hints: { sendConfirmation },
    });
    await emitSeatChanges(trx, plan.sellerId, sender.id, changes);
    return view;
  }

  /**
   * Books a checked plan in one transaction: the seats taken, then the order, its items,
   * its domain events, its email and its Idempotency-Key answer sent as one statement
   * (db/write-batch.ts). A short code the seller already has (about one draw in 10^11 for
   * a seller with a million orders) fails that statement; the booking is then made again
   * from the start with another code, a few times at most.
   */
  async function commitBooking(
    planned: PlannedBooking,
    sender: Sender,
    record: Recorder,
  ): Promise<OrderView> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(db, (tx) =>
          inOneStatement(tx, async () => {
            const booked = await write(tx, planned, sender);
            await record(tx, { status: 201, body: booked });
            return booked;
          }),
        );
      } catch (error) {
        if (attempt >= SHORT_CODE_TRIES || !isUniqueViolation(error, 'orders_short_code'))
          throw error;
      }
    }
  }

  /**
   * Of the departures the items ask for that no schedule offers, those opened by hand: one
   * query, and only when an item asks for such a departure (a booking on the schedule
   * costs nothing more).
   */
  async function openedByHand(
    executor: Executor,
    items: readonly BookingItemInput[],
    ctx: Pick<BookingContext, 'experiences' | 'schedulesOf'>,
  ): Promise<Set<string>> {
    const wanted = unscheduled(items, ctx);
    if (wanted.length === 0) return new Set();
    return events.openedByHand(
      executor,
      wanted.map((w) => w.experienceId),
      wanted.map((w) => w.start),
    );
  }

  /** Plans a booking request: the caller, the experiences, the customer it may attach. */
  async function plan(caller: Caller, request: BookingInput, quoting = false, guest = false) {
    const input = {
      ...request,
      items: request.items.map((item, i) => readLineItems(item, `items.${i}`)),
    };
    const ids = [...new Set(input.items.map((i) => i.experience.id))];
    // The caller is the account as authenticated (its cache is emptied on every change to
    // it), so it is not read again.
    const account: Account = caller;
    const rows = await experiences.findMany(db, ids);
    const sellerId = rows.find((r) => r.id === input.items[0]?.experience.id)?.seller_id;
    const customer = input.customer && (await attachable(input.customer.id, caller, sellerId));
    const scheduling = {
      experiences: new Map(rows.map((e) => [e.id, e])),
      schedulesOf: experiences.schedulesOf,
    };
    const planned = planBooking(input, {
      ...scheduling,
      access: accessOf(caller),
      caller: account,
      customer,
      openedByHand: await openedByHand(db, input.items, scheduling),
      now: now(),
      quoting,
      guest,
    });
    return { planned, account, sellerId };
  }

  /**
   * Plans a guest checkout (a publishable key): as a caller with no account and no rights,
   * at the key's seller only (another seller's experience does not exist for the key).
   */
  async function planCheckout(checkout: Checkout, input: BookingInput, quoting: boolean) {
    const guest: Caller = {
      id: checkout.keyId,
      name: '',
      email: '',
      roles: [],
      apiVersion: '',
      delegations: new Map(),
    };
    const planned = await plan(guest, input, quoting, true);
    // The items share one seller (planBooking checked): another one's do not exist here.
    if (planned.sellerId !== checkout.sellerId) {
      throw new DomainError(
        'not_found',
        `Experience ${input.items[0]?.experience.id} was not found.`,
        {
          errors: [{ in: 'body', name: 'items.0.experience.id', detail: 'no such experience' }],
        },
      );
    }
    return planned;
  }

  /** A planned booking's quote: the seats of every departure asked, in one query. */
  async function quotePlanned(planned: PlannedBooking): Promise<OrderQuoteView> {
    const wanted = new Map<string, { item: PlannedItem; quantity: number }>();
    for (const item of planned.items) {
      const key = departureKey(item.experience.id, item.start);
      const entry = wanted.get(key) ?? { item, quantity: 0 };
      entry.quantity += item.quantity;
      wanted.set(key, entry);
    }
    // The seats of every departure asked, in one query whatever the number of items.
    const found = await events.seatsAt(
      db,
      [...new Set(planned.items.map((i) => i.experience.id))],
      planned.items.map((i) => i.start),
    );
    const left = new Map<string, number | null>();
    for (const item of planned.items) {
      const key = departureKey(item.experience.id, item.start);
      const event = found.get(key);
      left.set(key, event ? seatsOpen(event) : item.experience.outing_max);
    }
    for (const [key, { item, quantity }] of wanted) {
      const seatsLeft = left.get(key)!;
      if (seatsLeft !== null && quantity > seatsLeft)
        throw capacityExceeded(item.index, seatsLeft, quantity);
    }
    return {
      object: 'order_quote',
      seller: { id: planned.sellerId },
      amount: planned.amount,
      currency: planned.currency,
      items: planned.items.map((item) => ({
        experience: { id: item.experience.id },
        name: item.experience.name,
        arrival: item.arrival,
        arrivalTime: item.arrivalTime,
        arrivalDatetime: localIso(item.start, item.experience.timezone),
        quantity: item.quantity,
        demographics: item.lines,
        lineItems: lineItemsOf(item),
        price: item.price,
        amount: item.amount,
        status: item.status,
        seatsLeft: left.get(departureKey(item.experience.id, item.start))!,
      })),
    };
  }

  /** Ends every unconfirmed hold of an order: its held items canceled, their seats back. */
  async function releaseHolds(trx: Tx, orderId: string): Promise<boolean> {
    const orders = ordersRepository(trx);
    const order = await orders.lock(orderId);
    if (!order?.hold_expires_at || order.hold_expires_at.getTime() > now().getTime()) return false;
    const items = (await orders.itemsOf([orderId])).get(orderId) ?? [];
    const held = items.filter((i) => i.status === ITEM_STATUS.hold);
    const after = items.map((i) =>
      i.status === ITEM_STATUS.hold ? { ...i, status: ITEM_STATUS.canceled } : i,
    );
    await commitChange(
      trx,
      order,
      items,
      after,
      { id: null, reason: 'hold expired' },
      {
        changed: held,
        added: [],
        deltas: addSeats(new Map(), seatsHeld(held), -1),
      },
    );
    return true;
  }

  /**
   * Writes a change of an order: seats moved, items updated and added, the order's derived
   * fields and an adjustment for the amount's difference, and `order.update` with its audit.
   */
  async function commitChange(
    trx: Tx,
    order: OrderRow,
    before: readonly OrderItemRow[],
    after: readonly OrderItemRow[],
    actor: { id: string | null; reason: string },
    work: {
      changed: readonly OrderItemRow[];
      added: readonly OrderItemRow[];
      deltas: ReadonlyMap<string, SeatDelta>;
      fields?: Partial<OrderRow>;
      expected?: number;
    },
  ): Promise<OrderView> {
    const changes = await moveSeats(trx, work.deltas);
    // The creation clock, inside the transaction: pollers of updatedAt rely on it.
    const stamp = creationTime();
    const facts = derived(after, order.currency, order.hold_expires_at, stamp);
    const digits = minorDigits(order.currency);
    const amount = fromMinor(facts.amountMinor, digits);
    checkAmount(amount, order.currency, work.expected);
    const difference = facts.amountMinor - toMinor(order.amount, digits);
    const next: OrderRow = {
      ...order,
      ...work.fields,
      status: facts.status,
      arrival: facts.arrival,
      amount,
      hold_expires_at: facts.hold_expires_at,
      adjustments:
        difference === 0n
          ? order.adjustments
          : [
              ...order.adjustments,
              {
                amount: fromMinor(difference, digits),
                reason: actor.reason,
                createdAt: iso(stamp),
              },
            ],
      updated_at: stamp,
    };
    const orders = ordersRepository(trx);
    await orders.update(next);
    for (const item of work.changed) {
      await orders.updateItem(after.find((i) => i.id === item.id)!);
    }
    // Kept items where they were, added ones after them (item-order.ts).
    const ordered = inBookingOrder(before, after);
    const added = new Set(work.added.map((i) => i.id));
    if (added.size > 0) await orders.insertItems(ordered.filter((i) => added.has(i.id)));
    const view = toOrderView(next, ordered);
    await emitChange(domainEvents, trx, {
      name:
        next.status === 'canceled' && order.status !== 'canceled' ? 'order.cancel' : 'order.update',
      sellerId: order.seller_id,
      actorId: actor.id,
      after: view,
      before: toOrderView(order, [...before]),
    });
    await emitSeatChanges(trx, order.seller_id, actor.id, changes);
    return view;
  }

  /** The order's items after the change, and the seats, rows and inserts it takes. */
  async function reviseItems(
    tx: Tx,
    order: OrderRow,
    before: readonly OrderItemRow[],
    inputs: readonly (Omit<NonNullable<UpdateOrderInput['items']>[number], 'lineItems'> & Place)[],
    ctx: { access: Access; staff: boolean; experiences: Map<string, ExperienceRow> },
  ) {
    const existing = checkItemIds(before, inputs);
    // 404 for an experience the caller may not see; one seller and currency for all items.
    sellerOf(inputs, ctx);
    inputs.forEach((input, index) => {
      const experience = ctx.experiences.get(input.experience.id)!;
      if (experience.seller_id !== order.seller_id || experience.currency !== order.currency)
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
          if (!ctx.staff && STAFF_STATUSES.includes(status))
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
      const keepsLines =
        current && input.quantity === undefined && input.demographics === undefined;
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
    const scheduling = { experiences: ctx.experiences, schedulesOf: experiences.schedulesOf };
    const planned = planItems(
      wanted,
      { ...scheduling, openedByHand: await openedByHand(tx, wanted, scheduling), now: now() },
      ctx.staff,
      defaultStatus,
      toPlan.map((p) => p.index),
      toPlan.map((p) => p.input.status === p.current?.status),
      keptSeats,
    );
    const eventOf = await eventsOf(tx, order.seller_id, planned);
    const added: OrderItemRow[] = [];
    const deltas = new Map<string, SeatDelta>();
    for (const item of planned) {
      const { current } = toPlan.find((p) => p.index === item.index)!;
      const row = current
        ? itemRow(item, order, eventOf.get(item.index)!, current.id, current.ticket_code)
        : itemRow(item, order, eventOf.get(item.index)!);
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

  return {
    list: async (caller: Caller, query: Record<string, unknown>) => {
      const search = query.search === undefined ? undefined : searchTerm(query.search);
      return runList(
        orderList,
        {
          path: '/api/orders',
          query: search === undefined ? query : withoutSearch(query),
          scope: ordersScope(caller),
          linkQuery: query,
          horizon: { field: 'updatedAt', at: () => pollHorizon(db, pollMarginMs) },
        },
        repo.listSource(search),
        (rows) => rows.map(view),
      );
    },

    async get(caller: Caller, id: string): Promise<OrderView> {
      const order = await repo.findWithItems(id);
      if (!order || !maySee(accessOf(caller), order)) throw notFound(`Order ${id}`);
      return view(order);
    },

    async book(caller: Caller, input: BookingInput, record: Recorder): Promise<OrderView> {
      const { planned, account, sellerId } = await plan(caller, input);
      const sender = {
        id: caller.id,
        email: account.email,
        capped: !(sellerId && accessOf(caller).can('orders', sellerId)),
      };
      return commitBooking(planned, sender, record);
    },

    /**
     * A guest checkout's booking (a publishable key): no customer account, the customer's
     * name, email and phone required, `source: "checkout"`. Its confirmation is not held to
     * a customer's hourly cap on mail to others: the guest writes its own address, and the
     * key's rate limits bound the volume (docs/security.md).
     */
    async bookAtCheckout(
      checkout: Checkout,
      input: BookingInput,
      record: Recorder,
    ): Promise<OrderView> {
      const { planned } = await planCheckout(checkout, input, false);
      const sender = { id: checkout.keyId, email: '', capped: false };
      return commitBooking(planned, sender, record);
    },

    /** A guest checkout's quote (a publishable key). */
    async quoteAtCheckout(checkout: Checkout, input: BookingInput): Promise<OrderQuoteView> {
      return quotePlanned((await planCheckout(checkout, input, true)).planned);
    },

    /** The order as it would be booked now, without taking seats or writing anything. */
    async quote(caller: Caller, input: BookingInput): Promise<OrderQuoteView> {
      return quotePlanned((await plan(caller, input, true)).planned);
    },

    /**
     * Changes an order (PUT and PATCH): customer details and notes, and, when `items` is
     * given, the items it keeps (by id; moved, resized or re-typed ones repriced at today's
     * prices), adds (no id) and drops (live ones not listed are canceled). All or nothing,
     * seats moved under the same locks as a booking.
     */
    async change(
      caller: Caller,
      id: string,
      input: UpdateOrderInput,
      record: Recorder,
    ): Promise<OrderView> {
      const access = accessOf(caller);
      const email = customerEmailOf(input);
      const given = (input.items ?? []).map((item, i) => readLineItems(item, `items.${i}`));
      const ids = [...new Set(given.flatMap((i) => (i.experience ? [i.experience.id] : [])))];
      const rows = ids.length > 0 ? await experiences.findMany(db, ids) : [];
      return inTransaction(db, async (tx) => {
        const orders = ordersRepository(tx);
        const order = await orders.lock(id);
        if (!order || !maySee(access, order)) throw notFound(`Order ${id}`);
        if (order.status === 'canceled')
          throw new DomainError('already_canceled', `Order ${id} is canceled.`);
        const staff = access.can('orders', order.seller_id);
        const before = (await orders.itemsOf([id])).get(id) ?? [];
        if (!staff) customerMayChange(before, now());
        const fields: Partial<OrderRow> = {
          ...(input.customerName !== undefined ? { customer_name: input.customerName.trim() } : {}),
          ...(email !== undefined ? { customer_email: email } : {}),
          ...(input.phone !== undefined ? { phone: input.phone?.trim() || null } : {}),
          ...(input.notes !== undefined ? { notes: input.notes } : {}),
        };
        let after: OrderItemRow[] = before;
        let work = {
          changed: [] as OrderItemRow[],
          added: [] as OrderItemRow[],
          deltas: new Map(),
        };
        if (input.items) {
          const items = completeItemInputs(before, given);
          // Experiences of items named by id only: those of the order, read in its transaction.
          const known = new Map(rows.map((e) => [e.id, e]));
          const kept = [...new Set(items.map((i) => i.experience.id))].filter((e) => !known.has(e));
          for (const e of kept.length > 0 ? await experiences.findMany(tx, kept) : [])
            known.set(e.id, e);
          ({ after, work } = await reviseItems(tx, order, before, items, {
            access,
            staff,
            experiences: known,
          }));
        }
        const changed = await commitChange(
          tx,
          order,
          before,
          after,
          { id: caller.id, reason: 'change' },
          { ...work, fields, ...(input.amount !== undefined ? { expected: input.amount } : {}) },
        );
        await record(tx, { status: 200, body: changed });
        return changed;
      });
    },

    async cancel(caller: Caller, id: string): Promise<OrderView> {
      const access = accessOf(caller);
      return inTransaction(db, async (tx) => {
        const orders = ordersRepository(tx);
        const order = await orders.lock(id);
        if (!order || !maySee(access, order)) throw notFound(`Order ${id}`);
        if (order.status === 'canceled')
          throw new DomainError('already_canceled', `Order ${id} is already canceled.`);
        const items = (await orders.itemsOf([id])).get(id) ?? [];
        const live = items.filter((i) => holdsSeats(i.status));
        await orders.markCanceled(id);
        const changes = await moveSeats(tx, addSeats(new Map(), seatsHeld(live), -1));
        const canceled = (await orders.findById(id))!;
        const view = toOrderView(canceled, (await orders.itemsOf([id])).get(id) ?? []);
        await emitChange(domainEvents, tx, {
          name: 'order.cancel',
          sellerId: order.seller_id,
          actorId: caller.id,
          after: view,
          before: toOrderView(order, items),
        });
        await emitSeatChanges(tx, order.seller_id, caller.id, changes);
        return view;
      });
    },

    /**
     * Releases the holds (103) whose deadline passed, a batch at a time, each order in its
     * own transaction; the outbox worker calls it. How many orders it released.
     */
    async releaseExpiredHolds(limit = 100): Promise<number> {
      const due = await repo.holdsDue(now(), limit);
      let released = 0;
      for (const orderId of due) {
        if (await inTransaction(db, (tx) => releaseHolds(tx, orderId))) released++;
      }
      return released;
    },
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
