/**
 * Every domain event a hook may subscribe to, as the modules that emit them describe them
 * (their `*.events.ts`), in the order docs/webhooks.md lists them. Typed complete: an event
 * a module declares but whose module is missing here does not compile.
 */
import type { EventDocs, EventName } from '../../outbox/index.js';
import { eventEvents } from '../events/index.js';
import { experienceEvents } from '../experiences/index.js';
import { guideEvents } from '../guides/index.js';
import { orderEvents } from '../orders/index.js';
import { userEvents } from '../users/index.js';

export const EVENT_CATALOGUE: EventDocs<EventName> = {
  ...orderEvents,
  ...experienceEvents,
  ...eventEvents,
  ...guideEvents,
  ...userEvents,
};

export const EVENT_NAMES = Object.keys(EVENT_CATALOGUE) as EventName[];

/** What a hook subscribes to: one event name, or every one. */
export const HOOK_EVENT_NAMES: readonly ['*', ...EventName[]] = ['*', ...EVENT_NAMES];
