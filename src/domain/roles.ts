/**
 * Delegate roles and what each lets a delegate do for its seller (DESIGN.md section 6).
 * This table is the whole of role-based access: change a capability here and every route
 * and every list follows.
 */
export const DELEGATE_ROLES = [
  'ROLE_SELLER_ADMIN',
  'ROLE_RESERVATION',
  'ROLE_CURATOR',
  'ROLE_GUIDE_MANAGER',
  'ROLE_GUIDE',
  'ROLE_CHECKIN',
] as const;
export type DelegateRole = (typeof DELEGATE_ROLES)[number];

/** Things a seller's data can be used for. */
export type Capability =
  'orders' | 'experiences' | 'events' | 'guides' | 'delegates' | 'hooks' | 'keys' | 'checkins';

export const CAPABILITIES: Record<Capability, readonly DelegateRole[]> = {
  // List, book and cancel the seller's orders.
  orders: ['ROLE_SELLER_ADMIN', 'ROLE_RESERVATION'],
  // Create, change and delete experiences, and see hidden ones.
  experiences: ['ROLE_SELLER_ADMIN', 'ROLE_CURATOR'],
  // See and manage events and the seller's hidden experiences: curators run the schedule,
  // reservation staff books onto it, guide managers staff it.
  events: ['ROLE_SELLER_ADMIN', 'ROLE_CURATOR', 'ROLE_RESERVATION', 'ROLE_GUIDE_MANAGER'],
  // Guides, their schedules and their assignment to events.
  guides: ['ROLE_SELLER_ADMIN', 'ROLE_GUIDE_MANAGER'],
  // Add and remove other delegates.
  delegates: ['ROLE_SELLER_ADMIN'],
  // Webhook subscriptions, their secrets and their delivery logs (docs/webhooks.md).
  hooks: ['ROLE_SELLER_ADMIN'],
  // Publishable keys for the seller's checkout button (docs/security.md).
  keys: ['ROLE_SELLER_ADMIN'],
  // Check guests in at the dock (and undo it) and read departures' manifests; dock staff
  // get ROLE_CHECKIN, which grants this and nothing else (docs/operations-day.md).
  checkins: ['ROLE_SELLER_ADMIN', 'ROLE_RESERVATION', 'ROLE_CHECKIN'],
};
