/**
 * The user events: what each carries (declared into the outbox's DomainEventMap, so `emit`
 * and the consumers check it) and how docs/webhooks.md describes it.
 */
import type { EventDocs, EventName } from '../../outbox/index.js';
import { User, type UserView } from './users.schemas.js';

declare module '../../outbox/domain-events.js' {
  interface DomainEventMap {
    'user.update': { object: UserView };
  }
}

export const userEvents: EventDocs<Extract<EventName, `user.${string}`>> = {
  'user.update': {
    object: User,
    when: "the user's metadata changes (heard by the user's own hooks)",
    auditExample: { metadata: { old: {}, new: { crm: 'A-42' } } },
  },
};
