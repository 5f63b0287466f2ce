/**
 * Table types for Kysely. Column names are the SQL names (snake_case); repositories map
 * rows to API objects. Keep in step with src/db/migrations.
 */
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** jsonb: read as an object, written as JSON text (pg would send arrays as Postgres arrays). */
export type JsonObject = ColumnType<Record<string, unknown>, string | undefined, string>;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  password_hash: string;
  roles: string[];
  api_key_digest: Buffer;
  api_key_ciphertext: Buffer;
  /** The API version pinned at creation: the default for requests without X-API-VERSION. */
  api_version: string;
  metadata: JsonObject;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** jsonb holding a list (experience schedules). */
export type JsonArray = ColumnType<Record<string, unknown>[], string | undefined, string>;
/** jsonb holding an optional object (experience guide preferences). */
export type JsonObjectOrNull = ColumnType<
  Record<string, unknown> | null,
  string | null | undefined,
  string | null
>;
/** A guide's answer to an assignment (v2018-06-26). */
export type GuideStatus = 'pending' | 'confirmed' | 'declined';

type Created = ColumnType<Date, Date | string | undefined, never>;
type Updated = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric columns read as numbers (see the type parsers in database.ts). */
type Numeric = ColumnType<number, number | string, number | string>;

export interface ExperiencesTable {
  id: string;
  seller_id: string;
  name: string;
  description: Generated<string>;
  price: Numeric;
  price_type: 'person' | 'outing';
  currency: string;
  duration: number;
  timezone: Generated<string>;
  order_min: number | null;
  order_max: number | null;
  outing_max: number | null;
  schedules: JsonArray;
  /** Guest types: `[{id, label, code, price}]` (price null: the experience's price). */
  demographics: JsonArray;
  /** The resources its departures use: `[{resource: {id}, seatsPerGuest}]` (docs/resources.md). */
  resources: JsonArray;
  visible: Generated<boolean>;
  guide: JsonObjectOrNull;
  created_at: Created;
  updated_at: Updated;
}

export interface EventsTable {
  id: string;
  experience_id: string;
  seller_id: string;
  starts_at: ColumnType<Date, Date | string, Date | string>;
  ends_at: ColumnType<Date, Date | string, Date | string>;
  max: number | null;
  reserved: Generated<number>;
  guide_ids: ColumnType<string[], string[] | undefined, string[]>;
  /** Opened (true) or closed (false) by hand; null follows the schedules. */
  manual: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** Acknowledgement per guide id; a guide missing here is `confirmed`. */
  guide_statuses: ColumnType<Record<string, GuideStatus>, string | undefined, string>;
  /**
   * The zone, local start and local end the view shows, as written from Node's zone rules
   * (modules/events/new-event.ts); null on a row an older release wrote.
   */
  local_zone: ColumnType<string | null, string | null | undefined, string | null>;
  local_start: ColumnType<string | null, string | null | undefined, string | null>;
  local_end: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Created;
  updated_at: Updated;
}

export interface OrdersTable {
  id: string;
  seller_id: string;
  customer_id: string | null;
  customer_name: string;
  customer_email: string | null;
  /** Derived from the items: `canceled` once none holds seats (DESIGN.md: two values). */
  status: 'confirmed' | 'canceled';
  arrival: string;
  amount: Numeric;
  currency: string;
  /** Read aloud by the guest: unique per seller, no ambiguous characters. */
  short_code: string;
  phone: string | null;
  /** `office`, `checkout`, or a partner's name. */
  source: string | null;
  notes: JsonArray;
  payment_method: string | null;
  /** What each change of the order did to its amount: `[{amount, reason, createdAt}]`. */
  adjustments: JsonArray;
  /** When unconfirmed holds (status 103) are released, if the order has any. */
  hold_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Created;
  updated_at: Updated;
}

export interface OrderItemsTable {
  id: string;
  order_id: string;
  seller_id: string;
  /** Copied from the order, like seller_id, so scopes reach items by index. */
  customer_id: string | null;
  experience_id: string;
  event_id: string;
  name: string;
  arrival: string;
  arrival_time: number;
  arrival_datetime: ColumnType<Date, Date | string, Date | string>;
  timezone: string;
  quantity: number;
  price: Numeric;
  amount: Numeric;
  /** Xola's codes: 100 pending, 103 on hold, 200 confirmed, 202 not charged, 203 pay later, 700 canceled. */
  status: number;
  /** A partner's supplier reference: unique, unguessable. */
  ticket_code: string;
  /** The guest types booked: `[{demographic: {id}, label, code, quantity, price, amount}]`. */
  demographics: JsonArray;
  /** Where the item stands among its order's items: booking order, then items a change added. */
  position: number;
}

/** The guest types of experiences, one row each (a view over experiences.demographics). */
export interface DemographicsView {
  id: string;
  seller_id: string;
  experience_id: string;
  label: string;
  code: string;
  price: Numeric;
  position: number;
  visible: boolean;
  currency: string;
}

export interface DelegatesTable {
  id: string;
  seller_id: string;
  /** The account delegated to; null for an invitation to an address with no account yet. */
  user_id: string | null;
  /** The invited address (lowercase), for delegations made by email. */
  email: string | null;
  /** When the invited user accepted: from then on the seller sees who it is. */
  accepted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** SHA-256 of the live invitation token (migrations/0017); null once accepted. */
  invitation_digest: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  /** When the live invitation token stops accepting. */
  invitation_expires_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  roles: string[];
  created_at: Created;
  updated_at: Updated;
}

export interface IdempotencyKeysTable {
  /** Whose key: an account id, or `address:<ip>` for sign-up. */
  scope: string;
  key: string;
  fingerprint: string;
  status: 'running' | 'done';
  response_status: number | null;
  response_body: ColumnType<unknown, string | null | undefined, string | null>;
  locked_at: Updated;
  created_at: Created;
}

/** Emails waiting to be sent, sent, or given up on (see migrations/0004_outbox.ts). */
export interface OutboxTable {
  id: string;
  kind: 'order_confirmation' | 'order_cancellation' | 'hook_disabled' | 'delegate_invitation';
  order_id: string | null;
  /** For `hook_disabled`: the hook whose owner is told. */
  hook_id: ColumnType<string | null, string | null | undefined, string | null>;
  recipient: string;
  /** The account whose booking caused the email (the relay cap counts by it). */
  sender_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** For `delegate_invitation`: the invitation (delegation by email) it carries the token of. */
  delegate_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** For `delegate_invitation`: the token, sealed under the server secret; cleared once settled. */
  secret: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  status: Generated<'pending' | 'sent' | 'failed' | 'skipped'>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_error: string | null;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Created;
}

export interface GuidesTable {
  id: string;
  seller_id: string;
  user_id: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  bio: Generated<string>;
  picture: string | null;
  schedules: JsonArray;
  deleted_at: Date | null;
  created_at: Created;
  updated_at: Updated;
}

type Json = ColumnType<unknown, string, string>;
type JsonOrNull = ColumnType<unknown, string | null | undefined, string | null>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type TimestampOrNull = ColumnType<
  Date | null,
  Date | string | null | undefined,
  Date | string | null
>;

/**
 * Who made a hook, reseller credential or publishable key (a user id; null when made before
 * migration 0025): what a delegate made ends with its delegation (docs/security.md).
 */
export type MadeBy = ColumnType<string | null, string | null | undefined, never>;

/** Every change others may care about (docs/webhooks.md). */
export interface DomainEventsTable {
  id: string;
  /** bigint, read as a number (database.ts's type parsers). */
  seq: GeneratedAlways<number>;
  name: string;
  seller_id: string | null;
  actor_id: string | null;
  object: Json;
  audit: JsonOrNull;
  fanned_out: Generated<boolean>;
  created_at: Created;
}

export interface HooksTable {
  id: string;
  owner_id: string;
  /** A reseller's hook (octo/webhooks); null: the owner's own. */
  reseller_id: Generated<string | null>;
  event_name: string;
  url: string;
  secret_ciphertext: Buffer;
  api_version: string;
  status: Generated<'enabled' | 'disabled'>;
  disabled_at: TimestampOrNull;
  /** The domain events' last `seq` when the hook was made: it hears the later ones. */
  hears_after: Generated<number>;
  /** Whether it hears `user.update` (the user's private metadata): made by its owner or an admin. */
  hears_private: Generated<boolean>;
  /**
   * The user who made it (the owner itself, a seller-admin delegate, an admin); null for a
   * reseller's hook and for hooks made before migration 0025. Never changed.
   */
  created_by: MadeBy;
  created_at: Created;
  updated_at: Updated;
}

export interface WebhookDeliveriesTable {
  id: string;
  hook_id: string;
  event_id: string;
  event_name: string;
  event_seq: number;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  round_start: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: TimestampOrNull;
  last_status: number | null;
  delivered_at: TimestampOrNull;
  created_at: Created;
  updated_at: Updated;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  response: string | null;
  created_at: Created;
}

export interface PublishableKeysTable {
  id: string;
  seller_id: string;
  key: string;
  label: Generated<string>;
  /** The user who made it (the seller, a seller-admin delegate, an admin): MadeBy. */
  created_by: MadeBy;
  created_at: Created;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A guest's status at its departure (Xola's `guestStatus`). */
export type GuestStatus = 'pending' | 'arrived' | 'no_show';

/** One seat of an order item (issue 29): made with the seats, canceled with them. */
export interface OrderGuestsTable {
  id: string;
  order_id: string;
  item_id: string;
  seller_id: string;
  event_id: string;
  /** The guest type booked; null: a seat at the experience's own price. */
  demographic_id: string | null;
  /** Scanned at the dock: unique, unguessable (8 hex of seconds, 96 random bits). */
  ticket_code: string;
  status: GuestStatus;
  checked_in_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  checked_in_by: string | null;
  /** Its place among its item's guests. */
  position: number;
  created_at: ColumnType<Date, Date | string, never>;
  /** When its seat was given back; the live list leaves it out. */
  canceled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Every arrival recorded at the dock (a scan, or Xola's modify); an undo stamps `undone_at`. */
export interface CheckinsTable {
  id: string;
  seller_id: string;
  guest_id: string;
  order_id: string;
  event_id: string;
  source: 'scan' | 'modify';
  created_at: ColumnType<Date, Date | string, never>;
  created_by: string | null;
  undone_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  undone_by: string | null;
}

/** A Bearer credential a seller issued to a reseller (OCTo; Xola's affiliates). */
export interface ResellerCredentialsTable {
  id: string;
  seller_id: string;
  name: string;
  key_digest: Buffer;
  key_ciphertext: Buffer;
  /** 1250 is 12.5 %; null: none. */
  commission_bps: number | null;
  /** The user who made it (the seller, a seller-admin delegate, an admin): MadeBy. */
  created_by: MadeBy;
  created_at: ColumnType<Date, Date | string, never>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** What an OCTo booking records beside its order (docs/octo.md). */
export interface ResellerBookingsTable {
  order_id: string;
  seller_id: string;
  /** The reseller credential's id, or the seller's own (its API key). */
  booker_id: string;
  uuid: string;
  /** SHA-256 of the reserve request, canonical: the same uuid again must send the same. */
  request_digest: Buffer;
  reseller_reference: string | null;
  contact: JsonObjectOrNull;
  confirmed_at: Date | null;
  ended_at: Date | null;
  end_reason: string | null;
  expired: Generated<boolean>;
}

/** A unit item's own uuid, reference and contact, beside its guest. */
export interface ResellerBookingSeatsTable {
  guest_id: string;
  order_id: string;
  uuid: string;
  reseller_reference: string | null;
  contact: JsonObjectOrNull;
}

/** A seller's resource shared by experiences (a boat, a van): seats at any one moment. */
export interface ResourcesTable {
  id: string;
  seller_id: string;
  name: string;
  capacity: number;
  created_at: ColumnType<Date, Date | string, never>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

/** What a departure holds of a resource over its window. */
export interface ResourceSeatsTable {
  resource_id: string;
  event_id: string;
  starts_at: ColumnType<Date, Date | string, Date | string>;
  ends_at: ColumnType<Date, Date | string, Date | string>;
  seats_per_guest: number;
  seats: number;
}

export interface DB {
  users: UsersTable;
  experiences: ExperiencesTable;
  events: EventsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  demographics: DemographicsView;
  delegates: DelegatesTable;
  idempotency_keys: IdempotencyKeysTable;
  guides: GuidesTable;
  outbox: OutboxTable;
  domain_events: DomainEventsTable;
  hooks: HooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  publishable_keys: PublishableKeysTable;
  order_guests: OrderGuestsTable;
  checkins: CheckinsTable;
  resources: ResourcesTable;
  resource_seats: ResourceSeatsTable;
  reseller_credentials: ResellerCredentialsTable;
  reseller_bookings: ResellerBookingsTable;
  reseller_booking_seats: ResellerBookingSeatsTable;
}
