/**
 * Domain events and webhooks (docs/webhooks.md).
 *
 * - `domain_events`: every change others may care about, written in the same transaction as
 *   the change (`order.create`, `experience.update` ...): the object as the API showed it,
 *   what changed, who did it. It is the outbox: each side effect (an email, a webhook
 *   delivery) is a job derived from an event in that same transaction.
 * - `hooks`: a seller's (or user's) subscriptions: an event name (or `*`) and a URL, the
 *   signing secret (encrypted like API keys), the API version payloads are rendered in.
 * - `webhook_deliveries`: one per hook and event, claimed with `FOR UPDATE SKIP LOCKED` and a
 *   lease like the mail outbox, retried with back-off; `webhook_attempts` records each try.
 * - The mail outbox gains the cancellation email and the "hook disabled" notice, and a
 *   `skipped` status (a confirmation never sent for an order canceled before it went out).
 */
import { sql, type Kysely } from 'kysely';

const ID = sql`text collate "C" not null check (id ~ '^[0-9a-f]{24}$')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (query: ReturnType<typeof sql>) => query.execute(db);
  await run(sql`
    create table domain_events (
      id ${ID} primary key,
      seq bigint generated always as identity,
      name text collate "C" not null,
      seller_id text collate "C",
      actor_id text collate "C",
      object jsonb not null,
      audit jsonb,
      fanned_out boolean not null default false,
      created_at timestamptz(3) not null default now()
    )`);
  // What the webhook fan-out still has to read: small, whatever the table's size.
  await run(sql`create index domain_events_fan_out on domain_events (seq) where not fanned_out`);

  await run(sql`
    create table hooks (
      id ${ID} primary key,
      owner_id text collate "C" not null references users (id) on delete cascade,
      event_name text collate "C" not null,
      url text not null,
      secret_ciphertext bytea not null,
      api_version text collate "C" not null,
      status text collate "C" not null default 'enabled' check (status in ('enabled', 'disabled')),
      disabled_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      constraint hooks_owner_event_url unique (owner_id, event_name, url)
    )`);
  await run(
    sql`create index hooks_listening on hooks (owner_id, event_name) where status = 'enabled'`,
  );

  await run(sql`
    create table webhook_deliveries (
      id ${ID} primary key,
      hook_id text collate "C" not null references hooks (id) on delete cascade,
      event_id text collate "C" not null references domain_events (id),
      event_name text collate "C" not null,
      event_seq bigint not null,
      status text collate "C" not null default 'pending'
        check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      -- The attempt count when the current retry schedule began (a resend starts a new one).
      round_start integer not null default 0,
      next_attempt_at timestamptz(3) not null default now(),
      locked_until timestamptz(3),
      last_status integer,
      delivered_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now(),
      constraint webhook_deliveries_hook_event unique (hook_id, event_id)
    )`);
  await run(
    sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, event_seq) where status = 'pending'`,
  );
  await run(sql`create index webhook_deliveries_hook on webhook_deliveries (hook_id, id)`);

  await run(sql`
    create table webhook_attempts (
      id ${ID} primary key,
      delivery_id text collate "C" not null references webhook_deliveries (id) on delete cascade,
      attempt integer not null,
      status_code integer,
      error text,
      duration_ms integer not null,
      response text,
      created_at timestamptz(3) not null default now()
    )`);
  await run(sql`create index webhook_attempts_delivery on webhook_attempts (delivery_id, attempt)`);

  await run(sql`alter table outbox drop constraint outbox_kind_check`);
  await run(sql`alter table outbox add constraint outbox_kind_check
    check (kind in ('order_confirmation', 'order_cancellation', 'hook_disabled'))`);
  await run(sql`alter table outbox alter column order_id drop not null`);
  await run(
    sql`alter table outbox add column hook_id text collate "C" references hooks (id) on delete cascade`,
  );
  await run(sql`alter table outbox drop constraint outbox_status_check`);
  await run(sql`alter table outbox add constraint outbox_status_check
    check (status in ('pending', 'sent', 'failed', 'skipped'))`);
}
