/** Domain events and the outbox: what modules emit, and what consumers derive from it. */
export {
  auditOf,
  createEventSink,
  emitChange,
  noEvents,
  type Audit,
  type DomainEvent,
  type EventConsumer,
  type EventSink,
  type StoredEvent,
} from './domain-events.js';
export { pollLoop, type PollLoop } from './poll-loop.js';
export { EVENT_NAMES, HOOK_EVENT_NAMES, type EventName } from './event-names.js';
export { domainEventsRepository } from './domain-events.repository.js';
