/** The events module's public surface: the only file other code imports from it. */
export { Event, seatsOpen, type EventView } from './events.schemas.js';
export { eventsModule } from './events.module.js';
export {
  bookingEventsFacade,
  departureKey,
  eventsFacade,
  type BookingEventsFacade,
  type Staffing,
  type EventsFacade,
  type NewEvent,
  type SeatChange,
  type Shown,
} from './events.facade.js';
export { eventList } from './events.list.js';
