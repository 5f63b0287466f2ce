/**
 * Reads what an order confirmation shows: the order as the API presents it, plus the time
 * zone each item was booked in (so a reader sees "Europe/Paris" and not only "+01:00").
 * Guides are not read yet: the template accepts them when the guide feature supplies them.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { toOrderView } from '../modules/orders/orders.mapper.js';
import type { ConfirmationInput } from './confirmation.template.js';

export async function loadConfirmation(
  db: Kysely<DB>,
  orderId: string,
): Promise<ConfirmationInput | null> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  const items = await db
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('arrival_datetime')
    .orderBy('id')
    .execute();
  return {
    order: toOrderView(order, items),
    timezones: new Map(items.map((item) => [item.id, item.timezone])),
  };
}
