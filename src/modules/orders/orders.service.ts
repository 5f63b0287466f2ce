/**
 * The orders service: each use case (booking, quotes, changes, cancellation, holds, reads)
 * is a top-level function in its own file taking the orders context first; this binds them
 * to one context for the routes and the hold sweeper.
 */
import type { Caller, Checkout } from '../../domain/caller.js';
import type { Recorder } from '../idempotency/index.js';
import type { BookingInput } from './booking.js';
import { book, bookAtCheckout } from './booking.service.js';
import { cancel } from './cancellation.service.js';
import { releaseExpiredHolds } from './holds.service.js';
import { change } from './order-change.service.js';
import { get, getJson, list, listJson } from './order-reads.service.js';
import { ordersContext, type OrdersServiceDeps } from './orders.context.js';
import type { UpdateOrderInput } from './orders.schemas.js';
import { quote, quoteAtCheckout } from './quote.service.js';

export type { OrdersServiceDeps, RelayCap } from './orders.context.js';
export { ordersScope } from './order-reads.service.js';

export function ordersService(deps: OrdersServiceDeps) {
  const ctx = ordersContext(deps);
  return {
    list: (caller: Caller, query: Record<string, unknown>) => list(ctx, caller, query),
    listJson: (caller: Caller, query: Record<string, unknown>) => listJson(ctx, caller, query),
    get: (caller: Caller, id: string) => get(ctx, caller, id),
    getJson: (caller: Caller, id: string) => getJson(ctx, caller, id),
    book: (caller: Caller, input: BookingInput, record: Recorder) =>
      book(ctx, caller, input, record),
    bookAtCheckout: (checkout: Checkout, input: BookingInput, record: Recorder) =>
      bookAtCheckout(ctx, checkout, input, record),
    quote: (caller: Caller, input: BookingInput) => quote(ctx, caller, input),
    quoteAtCheckout: (checkout: Checkout, input: BookingInput) =>
      quoteAtCheckout(ctx, checkout, input),
    change: (caller: Caller, id: string, input: UpdateOrderInput, record: Recorder) =>
      change(ctx, caller, id, input, record),
    cancel: (caller: Caller, id: string) => cancel(ctx, caller, id),
    releaseExpiredHolds: (limit?: number) => releaseExpiredHolds(ctx, limit),
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
