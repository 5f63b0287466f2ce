/**
 * The Order object (its schema, view type, and how a row becomes it) and the request
 * bodies of the orders endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { DateString, Hhmm, iso, localIso, ref, refOrNull } from '../shared/index.js';
import type { Selectable } from 'kysely';
import type { OrderItemsTable, OrdersTable } from '../../db/types.js';
import { Guest, ItemGuestStatus, itemGuestStatus, toGuestView, type GuestFacts } from './guests.js';
import { BOOKABLE_STATUSES } from './item-status.js';
import { lineItemsOf } from './line-items.js';
import type { DemographicLine } from './pricing.js';

/** How an order says it is (to be) paid; no payment is processed here (docs/booking.md). */
export const PAYMENT_METHODS = ['later', 'cash', 'check', 'card', 'other'] as const;

const DemographicLine = Type.Object({
  demographic: Ref,
  label: Type.String(),
  code: Type.String(),
  quantity: Type.Integer(),
  price: Type.Number({ description: 'Per seat, in the currency' }),
  amount: Type.Number(),
});

const LineItem = Type.Object(
  {
    object: Type.Literal('lineitem_demographic'),
    // null: the default guest type (an item booked by plain quantity)
    demographic: Nullable(Ref),
    quantity: Type.Integer(),
    price: Type.Number({
      description: "Per seat (the item's whole price for outing pricing), in the currency",
    }),
    amount: Type.Number(),
  },
  { description: "Xola's priced line of an item: one per guest type booked" },
);

export const OrderItem = Type.Object({
  id: Id,
  experience: Ref,
  event: Ref,
  name: Type.String({ description: "The experience's name when booked" }),
  arrival: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
  arrivalTime: Type.Integer({ description: 'HHMM' }),
  arrivalDatetime: Type.String({
    format: 'date-time',
    description: 'ISO 8601 with the local offset',
  }),
  quantity: Type.Integer({ description: 'Seats: the sum of the guest types when given' }),
  demographics: Type.Array(DemographicLine, { description: 'The guest types booked, if any' }),
  lineItems: Type.Array(LineItem),
  price: Type.Number({ description: "The experience's price when booked" }),
  amount: Type.Number(),
  shortCode: Type.String({ description: "The order's short code (Xola shows it on each item)" }),
  status: Type.Integer({
    description:
      '100 pending, 103 on hold, 200 confirmed, 202 confirmed not charged, 203 pay later, 700 canceled',
  }),
  ticketCode: Type.String({ description: "A partner's supplier reference: unique, unguessable" }),
  guests: Type.Array(Guest, {
    description: 'One per seat held, each with its own ticket code; canceled seats are not listed',
  }),
  guestStatus: ItemGuestStatus,
});

const Note = Type.Object({ text: Type.String() });
export const Payment = Type.Object({ method: Type.String() });
const Adjustment = Type.Object({
  amount: Type.Number({ description: 'What the change added (negative: took off)' }),
  reason: Type.String(),
  createdAt: Timestamp,
});

export const Order = Type.Object(
  {
    object: Type.Literal('order'),
    id: Id,
    seller: Ref,
    customer: Nullable(Ref),
    customerName: Type.String(),
    customerEmail: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    source: Nullable(Type.String({ description: '`office`, `checkout`, or a partner' })),
    status: Type.Enum(['confirmed', 'canceled'], {
      description:
        'canceled once no item holds seats; each item status says whether it is confirmed',
    }),
    shortCode: Type.String({ description: 'Read aloud by the guest; unique per seller' }),
    arrival: Type.String({ format: 'date', description: 'Earliest item date' }),
    amount: Type.Number(),
    currency: Type.String(),
    payment: Nullable(Payment),
    notes: Type.Array(Note),
    adjustments: Type.Array(Adjustment),
    holdExpiresAt: Nullable(
      Type.String({ format: 'date-time', description: 'When held seats (103) are released' }),
    ),
    items: Type.Array(OrderItem),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Order' },
);
export type OrderView = Static<typeof Order>;
export type OrderItemView = Static<typeof OrderItem>;
export const OrderList = listOf(Order);

/** The answer of `POST /api/orders/prepare`: the order as it would be booked. */
export const OrderQuote = Type.Object(
  {
    object: Type.Literal('order_quote'),
    seller: Ref,
    amount: Type.Number(),
    currency: Type.String(),
    items: Type.Array(
      Type.Object({
        experience: Ref,
        name: Type.String(),
        arrival: Type.String({ format: 'date' }),
        arrivalTime: Type.Integer(),
        arrivalDatetime: Type.String({ format: 'date-time' }),
        quantity: Type.Integer(),
        demographics: Type.Array(DemographicLine),
        lineItems: Type.Array(LineItem),
        price: Type.Number(),
        amount: Type.Number(),
        status: Type.Integer(),
        seatsLeft: Nullable(Type.Integer({ description: 'Before this order; null: unlimited' })),
      }),
    ),
  },
  { $id: 'OrderQuote' },
);
export type OrderQuoteView = Static<typeof OrderQuote>;

const DemographicInput = Type.Object(
  {
    demographic: Type.Object({ id: Id }, { additionalProperties: false }),
    quantity: Type.Integer({ minimum: 0, maximum: 10_000 }),
  },
  { additionalProperties: false },
);

const LineItemInput = Type.Object(
  {
    object: Type.Optional(Type.Literal('lineitem_demographic')),
    demographic: Nullable(Type.Object({ id: Id }, { additionalProperties: false })),
    quantity: Type.Integer({ minimum: 0, maximum: 10_000 }),
    price: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1e15, description: 'Ignored: the service prices' }),
    ),
    amount: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1e15, description: 'Ignored: the service prices' }),
    ),
  },
  { additionalProperties: false },
);

const itemFields = {
  experience: Type.Object({ id: Id }, { additionalProperties: false }),
  arrival: DateString,
  arrivalTime: Hhmm,
  quantity: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10_000, description: 'Or give demographics' }),
  ),
  demographics: Type.Optional(
    Type.Array(DemographicInput, {
      minItems: 1,
      maxItems: 20,
      description: 'Guest types and their quantities',
    }),
  ),
  lineItems: Type.Optional(
    Type.Array(LineItemInput, {
      minItems: 1,
      maxItems: 20,
      description:
        "Xola's way to give guest counts: read as demographics (both given must agree); a line with demographic null counts plain seats",
    }),
  ),
  status: Type.Optional(
    Type.Union(
      BOOKABLE_STATUSES.map((s) => Type.Literal(s)),
      { description: 'Default 200 (203 with payment.method later); 100, 103, 202: staff only' },
    ),
  ),
};

const customerFields = {
  customerName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "Default: the customer's name" }),
  ),
  customerEmail: Type.Optional(
    Nullable(
      Type.String({
        format: 'email',
        maxLength: 254,
        description: "Default: the customer's email",
      }),
    ),
  ),
  email: Type.Optional(
    Nullable(Type.String({ format: 'email', maxLength: 254, description: 'customerEmail (Xola)' })),
  ),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  notes: Type.Optional(
    Type.Array(
      Type.Object(
        { text: Type.String({ minLength: 1, maxLength: 2000 }) },
        {
          additionalProperties: false,
        },
      ),
      { maxItems: 20 },
    ),
  ),
};

export const CreateOrderBody = Type.Object(
  {
    customer: Type.Optional(
      Type.Object(
        { id: Id },
        { additionalProperties: false, description: 'Staff only: the customer booked for' },
      ),
    ),
    ...customerFields,
    source: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: '`office`, `checkout`, or a partner name',
      }),
    ),
    payment: Type.Optional(
      Type.Object(
        {
          method: Type.Enum(PAYMENT_METHODS, {
            description: '`later` books the items as 203 pay later; no payment is taken',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    amount: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1e15,
        description: 'The amount the client expects (a quote); 409 amount_mismatch otherwise',
      }),
    ),
    items: Type.Array(Type.Object(itemFields, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 20,
    }),
  },
  { additionalProperties: false },
);
export type CreateOrderInput = Static<typeof CreateOrderBody>;

export const UpdateOrderBody = Type.Object(
  {
    ...customerFields,
    amount: CreateOrderBody.properties.amount,
    items: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.Optional({ ...Id, description: 'An item of the order; none: a new item' }),
            ...itemFields,
            // An item named by id keeps the fields its entry leaves out.
            experience: Type.Optional(itemFields.experience),
            arrival: Type.Optional(itemFields.arrival),
            arrivalTime: Type.Optional(itemFields.arrivalTime),
          },
          {
            additionalProperties: false,
            description:
              'An item named by id keeps what its entry leaves out; a new one says where',
          },
        ),
        {
          minItems: 1,
          maxItems: 20,
          description: 'The items the order keeps and adds; a live item not listed is canceled',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change' },
);
export type UpdateOrderInput = Static<typeof UpdateOrderBody>;

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
/** An item row read through json_agg: the same columns, the timestamp as text. */
export type ItemJson = Omit<OrderItemRow, 'arrival_datetime'> & { arrival_datetime: string };

export const itemFromJson = (item: ItemJson): OrderItemRow => ({
  ...item,
  arrival_datetime: new Date(item.arrival_datetime),
});

export function toOrderItemView(
  row: OrderItemRow,
  shortCode: string,
  guests: readonly GuestFacts[],
): OrderItemView {
  return {
    id: row.id,
    experience: ref(row.experience_id),
    event: ref(row.event_id),
    name: row.name,
    arrival: row.arrival,
    arrivalTime: row.arrival_time,
    arrivalDatetime: localIso(row.arrival_datetime, row.timezone),
    quantity: row.quantity,
    demographics: row.demographics as unknown as OrderItemView['demographics'],
    lineItems: lineItemsOf({
      quantity: row.quantity,
      price: row.price,
      amount: row.amount,
      lines: row.demographics as unknown as DemographicLine[],
    }),
    price: row.price,
    amount: row.amount,
    shortCode,
    status: row.status,
    ticketCode: row.ticket_code,
    guests: guests.map(toGuestView),
    guestStatus: itemGuestStatus(guests),
  };
}

/** Live guests by item id, each item's in seat order. */
function guestsByItem(guests: readonly GuestFacts[]): Map<string, GuestFacts[]> {
  const byItem = new Map<string, GuestFacts[]>();
  for (const guest of guests) {
    const list = byItem.get(guest.item_id);
    if (list) list.push(guest);
    else byItem.set(guest.item_id, [guest]);
  }
  for (const list of byItem.values()) list.sort((a, b) => a.position - b.position);
  return byItem;
}

/** The order as the API shows it: its items in booking order, each with its live guests. */
export function toOrderView(
  row: OrderRow,
  items: readonly OrderItemRow[],
  guests: readonly GuestFacts[],
): OrderView {
  const byItem = guestsByItem(guests);
  return {
    object: 'order',
    id: row.id,
    seller: ref(row.seller_id),
    customer: refOrNull(row.customer_id),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    phone: row.phone,
    source: row.source,
    status: row.status,
    shortCode: row.short_code,
    arrival: row.arrival,
    amount: row.amount,
    currency: row.currency,
    payment: row.payment_method === null ? null : { method: row.payment_method },
    notes: row.notes as unknown as OrderView['notes'],
    adjustments: row.adjustments as unknown as OrderView['adjustments'],
    holdExpiresAt: row.hold_expires_at === null ? null : iso(row.hold_expires_at),
    items: items.map((item) => toOrderItemView(item, row.short_code, byItem.get(item.id) ?? [])),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
