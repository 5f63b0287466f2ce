/** Turns order and order item rows into the API's Order object. */
import type { Selectable } from 'kysely';
import type { OrderItemsTable, OrdersTable } from '../../db/types.js';
import { iso, localIso, ref, refOrNull } from '../shared/index.js';
import type { OrderItemView, OrderView } from './orders.schemas.js';

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
