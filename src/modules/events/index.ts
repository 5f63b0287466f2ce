/** The events module's public surface: the only file other code imports from it. */
export { Event, seatsOpen, type EventView } from './events.schemas.js';
export { eventsModule } from './events.module.js';
export {
  departureKey,
  eventsFacade,
  MAX_AVAILABILITY_DEPARTURES,
  type DepartureSeats,
  type DepartureSource,
  type EventsFacade,
  type SeatChange,
  type SeatDelta,
  type SeatRequest,
  type Shown,
  type Staffing,
} from './events.facade.js';
export { capacityExceeded } from './seat-errors.js';
export { eventList } from './events.list.js';
export { eventEvents } from './events.events.js';
export { fillLocalTimes } from './new-event.js';
