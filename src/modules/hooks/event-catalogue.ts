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

/**
 * Events whose body is private to their user (`user.update` carries the metadata, which the
 * API shows only to the user itself or an admin): heard only by hooks such a caller made
 * (`hooks.hears_private`, migrations/0024_hook_private_events.ts).
 */
export const PRIVATE_EVENTS: ReadonlySet<string> = new Set<EventName>(['user.update']);
