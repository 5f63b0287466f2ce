/**
 * The experience events: what each carries (declared into the outbox's DomainEventMap, so
 * `emit` and the consumers check it) and how docs/webhooks.md describes it.
 */
import type { EventDocs, EventName } from '../../outbox/index.js';
import { Experience, type ExperienceView } from './experiences.schemas.js';

declare module '../../outbox/domain-events.js' {
  interface DomainEventMap {
    'experience.create': { object: ExperienceView };
    'experience.update': { object: ExperienceView };
    'experience.delete': { object: ExperienceView };
  }
}

export const experienceEvents: EventDocs<Extract<EventName, `experience.${string}`>> = {
  'experience.create': { object: Experience, when: 'an experience is created' },
  'experience.update': {
    object: Experience,
    when: 'an experience or its guide preferences change',
    auditExample: { name: { old: 'Harbour Kayak', new: 'Sunset Kayak' } },
  },
  'experience.delete': {
    object: Experience,
    when: 'an experience is deleted (the object as it was)',
  },
};
