/**
 * Email as a consumer of domain events, inside the transaction of the change: a booking, or
 * the change that confirms an order's first item, queues its confirmation when its hint
 * says so (modules/orders/confirmations.ts), a cancellation queues the
 * cancellation email, but only when the customer may have the confirmation, and to the
 * address that got it: one that was still waiting is skipped instead and nothing is sent
 * at all (docs/booking.md). A change of the order's address takes a confirmation still
 * waiting to the new one when its hint says so (confirmations.ts).
 */
import type { EventConsumer } from '../outbox/index.js';
import { enqueue, queue, readdressConfirmation, settleConfirmation } from './outbox.repository.js';

export const mailConsumer: EventConsumer = {
  async onEvent(tx, event) {
    if (event.name === 'order.create' || event.name === 'order.update') {
      const { id: orderId, customerEmail: recipient } = event.object;
      if (recipient && event.hints?.sendConfirmation) {
        await queue(tx, { orderId, recipient, senderId: event.actorId });
      } else if (recipient && event.name === 'order.update' && event.hints?.readdressConfirmation) {
        await readdressConfirmation(tx, orderId, recipient, event.actorId);
      }
    } else if (event.name === 'order.cancel') {
      const { id: orderId } = event.object;
      const confirmation = await settleConfirmation(tx, orderId);
      if (typeof confirmation === 'object') {
        await enqueue(tx, {
          kind: 'order_cancellation',
          orderId,
          recipient: confirmation.out,
          senderId: event.actorId,
        });
      }
    }
  },
};
