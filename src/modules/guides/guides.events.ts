/**
 * The guide events: what each carries (declared into the outbox's DomainEventMap, so `emit`
 * and the consumers check it) and how docs/webhooks.md describes it.
 */
import type { EventDocs, EventName } from '../../outbox/index.js';
import { Guide, type GuideView } from './guides.schemas.js';

declare module '../../outbox/domain-events.js' {
  interface DomainEventMap {
    'guide.create': { object: GuideView };
    'guide.update': { object: GuideView };
    'guide.delete': { object: GuideView };
  }
}

export const guideEvents: EventDocs<Extract<EventName, `guide.${string}`>> = {
  'guide.create': { object: Guide, when: 'a guide profile is created' },
  'guide.update': {
    object: Guide,
    when: 'a guide profile or its schedules change',
    auditExample: { phone: { old: null, new: '+33 6 12 34 56 78' } },
  },
  'guide.delete': {
    object: Guide,
    when: 'a guide profile is deleted (the object as it was); the events that have not started lose it first, each announced by its own `event.update`',
  },
};
