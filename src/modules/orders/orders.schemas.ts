/**
 * The Order object (its schema, view type, and how a row becomes it) and the request
 * bodies of the orders endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { DateString, Hhmm, iso, localIso, ref, refOrNull } from '../shared/index.js';
import type { Selectable } from 'kysely';
import type { OrderItemsTable, OrdersTable } from '../../db/types.js';

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
  quantity: Type.Integer(),
  price: Type.Number(),
  amount: Type.Number(),
  status: Type.Integer({ description: '200 confirmed, 700 canceled' }),
});

export const Order = Type.Object(
  {
    object: Type.Literal('order'),
    id: Id,
    seller: Ref,
    customer: Nullable(Ref),
    customerName: Type.String(),
    customerEmail: Nullable(Type.String()),
    status: Type.Enum(['confirmed', 'canceled']),
    arrival: Type.String({ format: 'date', description: 'Earliest item date' }),
    amount: Type.Number(),
    currency: Type.String(),
    items: Type.Array(OrderItem),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Order' },
);
export type OrderView = Static<typeof Order>;
export type OrderItemView = Static<typeof OrderItem>;
export const OrderList = listOf(Order);

export const CreateOrderBody = Type.Object(
  {
    customer: Type.Optional(
      Type.Object(
        { id: Id },
        { additionalProperties: false, description: 'Staff only: the customer booked for' },
      ),
    ),
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
    items: Type.Array(
      Type.Object(
        {
          experience: Type.Object({ id: Id }, { additionalProperties: false }),
          arrival: DateString,
          arrivalTime: Hhmm,
          quantity: Type.Integer({ minimum: 1, maximum: 10_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
/** An item row read through json_agg: the same columns, the timestamp as text. */
export type ItemJson = Omit<OrderItemRow, 'arrival_datetime'> & { arrival_datetime: string };

export const itemFromJson = (item: ItemJson): OrderItemRow => ({
  ...item,
  arrival_datetime: new Date(item.arrival_datetime),
});

/** Xola's integer item status codes. */
export const ITEM_STATUS = { confirmed: 200, canceled: 700 } as const;

export function toOrderItemView(row: OrderItemRow): OrderItemView {
  return {
    id: row.id,
    experience: ref(row.experience_id),
    event: ref(row.event_id),
    name: row.name,
    arrival: row.arrival,
    arrivalTime: row.arrival_time,
    arrivalDatetime: localIso(row.arrival_datetime, row.timezone),
    quantity: row.quantity,
    price: row.price,
    amount: row.amount,
    status: row.status,
  };
}

export function toOrderView(row: OrderRow, items: OrderItemRow[]): OrderView {
  return {
    object: 'order',
    id: row.id,
    seller: ref(row.seller_id),
    customer: refOrNull(row.customer_id),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    status: row.status,
    arrival: row.arrival,
    amount: row.amount,
    currency: row.currency,
    items: items.map(toOrderItemView),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
