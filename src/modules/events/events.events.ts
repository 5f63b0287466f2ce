/**
 * The event events (an event being a departure): what each carries (declared into the
 * outbox's DomainEventMap, so `emit` and the consumers check it) and how docs/webhooks.md
 * describes it. The orders module emits `event.update` too, when seats change.
 */
import type { EventDocs, EventName } from '../../outbox/index.js';
import { Event, type EventView } from './events.schemas.js';

declare module '../../outbox/domain-events.js' {
  interface DomainEventMap {
    'event.update': { object: EventView };
  }
}

export const eventEvents: EventDocs<Extract<EventName, `event.${string}`>> = {
  'event.update': {
    object: Event,
    when: 'an event is created or changed with `POST /api/events`, a booking, a change of an order, a cancellation or an expired hold changes its seats, or a guide is assigned or removed',
    auditExample: { guides: { old: [], new: ['6560a1b2c3d4e5f60718293a'] } },
  },
};
