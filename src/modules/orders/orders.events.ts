/**
 * The order events: what each carries (declared into the outbox's DomainEventMap, so `emit`
 * and the consumers check it) and how docs/webhooks.md describes it. A new order event is
 * one entry in each list here.
 */
import type { EventDocs, EventName } from '../../outbox/index.js';
import { Order, type OrderView } from './orders.schemas.js';

declare module '../../outbox/domain-events.js' {
  interface DomainEventMap {
    /**
     * `hints.sendConfirmation`: whether its confirmation email is queued (mail.consumer.ts):
     * by the booking, or by the change that confirms its first item (confirmations.ts);
     * `hints.readdressConfirmation`: whether one queued and not sent yet goes to the order's
     * new `customerEmail`.
     */
    'order.create': { object: OrderView; hints: { sendConfirmation: boolean } };
    'order.update': {
      object: OrderView;
      hints?: { sendConfirmation: boolean; readdressConfirmation?: boolean };
    };
    'order.cancel': { object: OrderView };
  }
}

export const orderEvents: EventDocs<Extract<EventName, `order.${string}`>> = {
  'order.create': { object: Order, when: 'an order is booked' },
  'order.update': {
    object: Order,
    when: 'an order is changed with `PUT`/`PATCH /api/orders/{id}` (customer details, notes, items moved, resized, added, dropped, confirmed), a hold of some of its items expires, or its guests are checked in (`POST /api/checkins`, `POST /api/orders/{id}/modify`) or a check-in is undone',
  },
  'order.cancel': {
    object: Order,
    when: 'an order is canceled (its items too; the seats go back), or its last held items expire',
    auditExample: { status: { old: 'confirmed', new: 'canceled' } },
  },
};
