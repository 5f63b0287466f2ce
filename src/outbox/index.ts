/** Domain events and the outbox: what modules emit, and what consumers derive from it. */
export {
  auditOf,
  createEventSink,
  emitChange,
  noEvents,
  type Audit,
  type Change,
  type DomainEvent,
  type DomainEventMap,
  type EventConsumer,
  type EventDoc,
  type EventDocs,
  type EventName,
  type EventObject,
  type EventSink,
  type StoredEvent,
} from './domain-events.js';
export { pollLoop, type PollLoop } from './poll-loop.js';
export { domainEventsRepository } from './domain-events.repository.js';
