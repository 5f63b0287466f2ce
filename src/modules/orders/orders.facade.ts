/**
 * What other modules may ask of orders: an order with its items, as the API shows it, and
 * its guests (guests.facade.ts: check-in, manifests, OCTo's unit items).
 */
import type { Executor } from '../../db/unit-of-work.js';
import { itemFromJson, type OrderView, toOrderView } from './orders.schemas.js';
import { guestsFacade } from './guests.facade.js';
import { ordersRepository } from './orders.repository.js';

export const ordersFacade = {
  guests: guestsFacade,

  /** Whether a user ever booked (as the customer) an order of a seller. */
  hasBookedWith: (db: Executor, userId: string, sellerId: string): Promise<boolean> =>
    ordersRepository(db).hasCustomerAtSeller(userId, sellerId),

  /** The order as the API shows it, and the time zone each item was booked in, by item id. */
  async find(
    db: Executor,
    id: string,
  ): Promise<{ order: OrderView; timezones: Map<string, string> } | undefined> {
    const row = await ordersRepository(db).findWithItems(id);
    if (!row) return undefined;
    const items = row.items.map(itemFromJson);
    return {
      order: toOrderView(row, items, row.guests),
      timezones: new Map(items.map((item) => [item.id, item.timezone])),
    };
  },
};

export type OrdersFacade = typeof ordersFacade;
