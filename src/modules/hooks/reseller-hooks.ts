/**
 * Resellers' webhooks (OCTo's octo/webhooks capability): a reseller registers a URL for
 * `booking_update` (its own bookings changed: confirmed, changed, cancelled, expired) or
 * `availability_update` (a departure of its seller's visible products changed). They are
 * hooks like the API's, owned by the reseller's seller and naming the credential, so they go
 * through the same outbox, fan-out, signing (Standard Webhooks, a `whsec_` secret given at
 * creation), retries and SSRF guard; revoking the credential deletes them. Which domain
 * events reach which reseller hook is `resellerDeliveries` (the fan-out asks it); what the
 * payload says, the OCTo module renders (`renderForReseller`, given to the dispatcher).
 */
import type { BookingEnv } from '../../config.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor, type Tx } from '../../db/unit-of-work.js';
import type { Reseller } from '../../domain/caller.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { checkResolves, urlProblems } from './destination.js';
import { newSecret, sealSecret } from './hook-secrets.js';
import type { HookRow } from './hooks.repository.js';
import { resellerHooksRepository } from './reseller-hooks.repository.js';

export const RESELLER_EVENTS = ['booking_update', 'availability_update'] as const;
export type ResellerEvent = (typeof RESELLER_EVENTS)[number];
/** Hooks per reseller credential (as MAX_HOOKS_PER_USER for the API's). */
export const MAX_HOOKS_PER_RESELLER = 20;

/** The domain events each reseller event follows. */
const FOLLOWS: Record<ResellerEvent, readonly string[]> = {
  booking_update: ['order.update', 'order.cancel'],
  availability_update: ['event.update'],
};

export interface ResellerHookView {
  id: string;
  event: ResellerEvent;
  url: string;
}

const view = (row: HookRow): ResellerHookView => ({
  id: row.id,
  event: row.event_name as ResellerEvent,
  url: row.url,
});

/** Why a reseller's hook cannot be made: the URL's problems, or it exists already. */
export class ResellerHookRefusal extends Error {}

export interface ResellerHookDeps {
  db: Executor;
  cipher: ApiKeyCipher;
  env: BookingEnv;
}

export async function createResellerHook(
  { db, cipher, env }: ResellerHookDeps,
  reseller: Reseller & { resellerId: string },
  input: { event: ResellerEvent; url: string },
): Promise<ResellerHookView & { secret: string }> {
  const problems = urlProblems(input.url, env);
  const unresolvable = problems.length === 0 ? await checkResolves(input.url, env) : undefined;
  if (unresolvable) problems.push(unresolvable);
  if (problems.length > 0) throw new ResellerHookRefusal(`url ${problems.join('; ')}`);
  const id = newId();
  const secret = newSecret();
  const row = await inTransaction(db, async (tx) => {
    const hooks = resellerHooksRepository(tx);
    if ((await hooks.countOf(reseller.resellerId)) >= MAX_HOOKS_PER_RESELLER)
      throw new ResellerHookRefusal(`at most ${MAX_HOOKS_PER_RESELLER} webhooks`);
    return hooks.insert({
      id,
      owner_id: reseller.sellerId,
      reseller_id: reseller.resellerId,
      event_name: input.event,
      url: input.url,
      secret_ciphertext: sealSecret(cipher, id, secret),
    });
  });
  if (!row) throw new ResellerHookRefusal(`there is a webhook for ${input.event} to this URL`);
  return { ...view(row), secret };
}

export const listResellerHooks = async (db: Executor, resellerId: string) =>
  (await resellerHooksRepository(db).list(resellerId)).map(view);

export const removeResellerHook = (db: Executor, resellerId: string, id: string) =>
  resellerHooksRepository(db).remove(resellerId, id);

/** A revoked credential's hooks end with it (in the revocation's transaction). */
export const removeResellerHooks = (tx: Tx, resellerId: string) =>
  resellerHooksRepository(tx).removeAll(resellerId);

/** A domain event as the fan-out reads it, with the ids a reseller hook is matched on. */
export interface FannedEvent {
  id: string;
  name: string;
  /** The object's id (an order's), and for an event's, its experience's. */
  objectId: string | null;
  experienceId: string | null;
}

/**
 * Which reseller hooks hear which events: `booking_update` the changes of bookings their own
 * credential made, `availability_update` the seat changes of their seller's visible
 * experiences (one query each, only when such hooks listen).
 */
export async function resellerDeliveries(
  db: Executor,
  events: readonly FannedEvent[],
  hooks: readonly { id: string; event_name: string; reseller_id: string | null }[],
  sameSeller: (hookId: string, eventId: string) => boolean,
): Promise<{ hookId: string; eventId: string }[]> {
  const listening = hooks.filter((h) => h.reseller_id !== null);
  if (listening.length === 0) return [];
  const repo = resellerHooksRepository(db);
  const follows = (e: FannedEvent, event: ResellerEvent) => FOLLOWS[event].includes(e.name);
  const bookers = await repo.bookersOf(
    events.flatMap((e) => (follows(e, 'booking_update') && e.objectId ? [e.objectId] : [])),
  );
  const visible = await repo.visibleOf(
    events.flatMap((e) =>
      follows(e, 'availability_update') && e.experienceId ? [e.experienceId] : [],
    ),
  );
  return events.flatMap((e) =>
    listening
      .filter((h) =>
        h.event_name === 'booking_update'
          ? follows(e, 'booking_update') && bookers.get(e.objectId ?? '') === h.reseller_id
          : h.event_name === 'availability_update' &&
            follows(e, 'availability_update') &&
            visible.has(e.experienceId ?? '') &&
            sameSeller(h.id, e.id),
      )
      .map((h) => ({ hookId: h.id, eventId: e.id })),
  );
}
