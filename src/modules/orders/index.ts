/** The orders module's public surface: the only file other code imports from it. */
export { Order, type OrderItemView, type OrderView } from './orders.schemas.js';
export { ordersModule } from './orders.module.js';
export { createHoldSweeper } from './hold-sweeper.js';
export { ordersFacade, type OrdersFacade } from './orders.facade.js';
export {
  resellerBookings,
  type ResellerBookingDeps,
  type ResellerBookings,
} from './reseller-bookings.facade.js';
export {
  ResellerRefusal,
  type ContactGiven,
  type RefusalKind,
  type ResellerBookingRead,
  type ResellerSeat,
  type SeatAsked as ResellerSeatAsked,
} from './reseller-bookings.js';
export type { ResellerBookingsFilter } from './reseller-bookings.repository.js';
export { MAX_HOLD_MINUTES, type BookingChange } from './reseller-changes.service.js';
export type { ReserveInput } from './reseller-reserve.service.js';
export type { CodeMatch, GuestRecord, ManifestGuest } from './guests.facade.js';
export { GUEST_STATUSES } from './guests.js';
export type { RelayCap } from './orders.service.js';
export { ITEM_STATUS, holdsSeats } from './item-status.js';
export { orderList } from './orders.list.js';
export { SHORT_CODE_ALPHABET, SHORT_CODE_LENGTH } from './booking-codes.js';
export { orderEvents } from './orders.events.js';
