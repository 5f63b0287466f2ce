/**
 * The catalogue of domain event names (docs/webhooks.md): what modules emit and what a hook
 * may subscribe to (`*` is every one of them).
 */
export const EVENT_NAMES = [
  'order.create',
  'order.update',
  'order.cancel',
  'experience.create',
  'experience.update',
  'experience.delete',
  'event.update',
  'guide.create',
  'guide.update',
  'guide.delete',
  'user.update',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** What a hook subscribes to: one event name, or every one. */
export const HOOK_EVENT_NAMES = ['*', ...EVENT_NAMES] as const;
