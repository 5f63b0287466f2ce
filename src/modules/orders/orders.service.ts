/**
 * Orders: booking (every item or none, never more seats than an event has), cancelling
 * (which gives the seats back), reading and listing. Each booking and cancellation emits
 * its domain events (`order.create`/`order.cancel`, `event.update` for the seats) in its own
 * transaction; the confirmation email is derived from them (mail/mail.consumer.ts).
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor, type Tx } from '../../db/unit-of-work.js';
import { accessOf, type Access } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { delegatesFacade as delegates } from '../delegates/index.js';
import type { EventsFacade, SeatChange, Shown } from '../events/index.js';
import type { ExperiencesFacade } from '../experiences/index.js';
import type { Recorder } from '../idempotency/index.js';
import type { UsersFacade } from '../users/index.js';
import { planBooking, type BookingInput, type PlannedBooking } from './booking.js';
import { orderList } from './orders.list.js';
import {
  ITEM_STATUS,
  itemFromJson,
  type OrderItemRow,
  type OrderRow,
  type OrderView,
  toOrderView,
} from './orders.schemas.js';
import { ordersRepository, type OrderWithItems } from './orders.repository.js';
import { roundCents } from './orders.rules.js';

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
  events: EventsFacade;
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
    actorId: string,
    changes: readonly SeatChange[],
  ): Promise<void> {
    for (const change of changes) {
      await domainEvents.emit(trx, { name: 'event.update', sellerId, actorId, ...change });
    }
  }

  /** Writes a checked booking: events found or made, seats taken, order and email stored. */
  async function write(trx: Tx, plan: PlannedBooking, sender: Sender): Promise<OrderView> {
    // Events are created in one fixed order and seats taken in another fixed order (by
    // id): two bookings can then never wait on each other in a cycle.
    const eventOf = new Map<number, string>();
    const byStart = [...plan.items].sort(
      (a, b) =>
        a.experience.id.localeCompare(b.experience.id) || a.start.getTime() - b.start.getTime(),
    );
    for (const item of byStart) {
      eventOf.set(
        item.index,
        await events.findOrCreate(trx, {
          id: newId(),
          experience_id: item.experience.id,
          seller_id: plan.sellerId,
          starts_at: item.start,
          ends_at: new Date(item.start.getTime() + item.experience.duration * 60_000),
          max: item.experience.outing_max,
        }),
      );
    }
    const seats = new Map<string, { quantity: number; firstItem: number; shown: Shown }>();
    for (const item of plan.items) {
      const eventId = eventOf.get(item.index)!;
      const entry = seats.get(eventId) ?? {
        quantity: 0,
        firstItem: item.index,
        shown: item.experience,
      };
      entry.quantity += item.quantity;
      seats.set(eventId, entry);
    }
    const changes: SeatChange[] = [];
    for (const eventId of [...seats.keys()].sort()) {
      const { quantity, firstItem, shown } = seats.get(eventId)!;
      const change = await events.reserve(trx, eventId, quantity, shown);
      if (change) {
        changes.push(change);
      } else {
        const seatsLeft = await events.seatsLeft(trx, eventId);
        throw new DomainError(
          'capacity_exceeded',
          `Only ${seatsLeft} seats are left on this departure; ${quantity} were asked for.`,
          {
            item: firstItem,
            event: { id: eventId },
            seatsLeft,
            errors: [
              {
                in: 'body',
                name: `items.${firstItem}.quantity`,
                detail: `only ${seatsLeft} seats are left`,
              },
            ],
          },
        );
      }
    }

    const orderId = newId();
    const items: OrderItemRow[] = plan.items.map((item) => ({
      id: newId(),
      order_id: orderId,
      seller_id: plan.sellerId,
      customer_id: plan.customerId,
      experience_id: item.experience.id,
      event_id: eventOf.get(item.index)!,
      name: item.experience.name,
      arrival: item.arrival,
      arrival_time: item.arrivalTime,
      arrival_datetime: item.start,
      timezone: item.experience.timezone,
      quantity: item.quantity,
      price: item.price,
      amount: item.amount,
      status: ITEM_STATUS.confirmed,
    }));
    const stamp = now();
    const order: OrderRow = {
      id: orderId,
      seller_id: plan.sellerId,
      customer_id: plan.customerId,
      customer_name: plan.customerName,
      customer_email: plan.customerEmail,
      status: 'confirmed',
      arrival: items.map((i) => i.arrival).sort()[0]!,
      amount: roundCents(items.reduce((sum, i) => sum + i.amount, 0)),
      currency: plan.currency,
      created_at: stamp,
      updated_at: stamp,
    };
    await ordersRepository(trx).insert(order, items);
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

  return {
    list: async (caller: Caller, query: Record<string, unknown>) =>
      runList(
        orderList,
        { path: '/api/orders', query, scope: ordersScope(caller) },
        repo.listSource(),
        (rows) => rows.map(view),
      ),

    async get(caller: Caller, id: string): Promise<OrderView> {
      const order = await repo.findWithItems(id);
      if (!order || !maySee(accessOf(caller), order)) throw notFound(`Order ${id}`);
      return view(order);
    },

    async book(caller: Caller, input: BookingInput, record: Recorder): Promise<OrderView> {
      const ids = [...new Set(input.items.map((i) => i.experience.id))];
      const [account, rows] = await Promise.all([
        users.find(db, caller.id),
        experiences.findMany(db, ids),
      ]);
      const sellerId = rows.find((r) => r.id === input.items[0]?.experience.id)?.seller_id;
      const customer = input.customer && (await attachable(input.customer.id, caller, sellerId));
      const plan = planBooking(input, {
        access: accessOf(caller),
        caller: account!,
        experiences: new Map(rows.map((e) => [e.id, e])),
        customer,
        schedulesOf: experiences.schedulesOf,
        now: now(),
      });
      const sender = {
        id: caller.id,
        email: account!.email,
        capped: !(sellerId && accessOf(caller).can('orders', sellerId)),
      };
      return inTransaction(db, async (tx) => {
        const booked = await write(tx, plan, sender);
        await record(tx, { status: 201, body: booked });
        return booked;
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
        const seats = new Map<string, number>();
        for (const item of items)
          seats.set(item.event_id, (seats.get(item.event_id) ?? 0) + item.quantity);
        await orders.markCanceled(id);
        const changes: SeatChange[] = [];
        for (const eventId of [...seats.keys()].sort())
          changes.push(await events.release(tx, eventId, seats.get(eventId)!));
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
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
