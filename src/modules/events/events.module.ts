/**
 * The events module assembled: events and their capacity, the guides on them (assignment),
 * experiences' availability, the facade bookings use, and the v2018-02-26 changes.
 */
import type { Db } from '../../db/database.js';
import type { ResourceModule } from '../../http/module.js';
import type { EventSink } from '../../outbox/index.js';
import type { IdempotencyService } from '../idempotency/index.js';
import { assignmentRoutes } from './assignment.routes.js';
import { assignmentService } from './assignment.service.js';
import { availabilityRoutes } from './availability.routes.js';
import { availabilityService } from './availability.service.js';
import { eventsFacade, type EventsFacade } from './events.facade.js';
import { eventsRoutes } from './events.routes.js';
import { Availability, Event, EventList, ManyAvailability } from './events.schemas.js';
import { eventsService } from './events.service.js';
import { eventVersionChanges } from './events.versions.js';

export function eventsModule(deps: {
  db: Db;
  idempotency: IdempotencyService;
  domainEvents?: EventSink;
}): ResourceModule<EventsFacade> {
  const events = eventsService(deps);
  const assignments = assignmentService(deps);
  const availability = availabilityService(deps);
  return {
    name: 'events',
    schemas: [Event, EventList, Availability, ManyAvailability],
    routes: async (app) => {
      await eventsRoutes(app, { events, idempotency: deps.idempotency });
      await assignmentRoutes(app, { assignments });
      await availabilityRoutes(app, { availability });
    },
    facade: eventsFacade,
    expanders: { event: (_db, caller, ids) => events.views(caller, ids) },
    versions: eventVersionChanges(),
  };
}
