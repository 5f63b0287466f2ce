/**
 * Resellers' webhooks (OCTo's octo/webhooks capability): a reseller registers a URL for
 * `booking_update` (its own bookings changed: confirmed, changed, cancelled, expired) or
 * `availability_update` (a departure of its seller's visible products changed). They are
 * hooks like the API's, owned by the reseller's seller and naming the credential, so they go
 * through the same outbox, fan-out, signing (Standard Webhooks, a `whsec_` secret given at
 * creation), retries and SSRF guard; revoking the credential deletes them. A hook disabled
 * after failing deliveries is enabled again by registering it again (the same event and URL:
 * a new secret); the seller's hook API cannot reach it. Which domain events reach which
 * reseller hook is `resellerDeliveries` (the fan-out asks it); what the payload says, the
 * OCTo module renders (`renderForReseller`, given to the dispatcher).
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
  status: 'enabled' | 'disabled';
}

const view = (row: HookRow): ResellerHookView => ({
  id: row.id,
  event: row.event_name as ResellerEvent,
  url: row.url,
  status: row.status,
});

/**
 * Why a reseller's hook cannot be made: the URL's problems, it exists already, the cap
 * (`BAD_REQUEST`), or the credential was revoked meanwhile (`FORBIDDEN`, as it now is).
 */
export class ResellerHookRefusal extends Error {
  constructor(
    message: string,
    readonly code: 'BAD_REQUEST' | 'FORBIDDEN' = 'BAD_REQUEST',
  ) {
    super(message);
  }
}

export interface ResellerHookDeps {
  db: Executor;
  cipher: ApiKeyCipher;
  env: BookingEnv;
}

/**
 * A new hook, or the reseller's disabled one for the same event and URL enabled again with
 * a new secret (the only way back for it: deliveries still pending resume, events while it
 * was disabled are not sent). The URL's name lookup can take seconds, so the credential is
 * checked again after it, under its row lock (`lockLiveCredential`).
 */
export async function createResellerHook(
  { db, cipher, env }: ResellerHookDeps,
  reseller: Reseller & { resellerId: string },
  input: { event: ResellerEvent; url: string },
): Promise<ResellerHookView & { secret: string }> {
  const problems = urlProblems(input.url, env);
  const unresolvable = problems.length === 0 ? await checkResolves(input.url, env) : undefined;
  if (unresolvable) problems.push(unresolvable);
  if (problems.length > 0) throw new ResellerHookRefusal(`url ${problems.join('; ')}`);
  const exists = () => new ResellerHookRefusal(`there is a webhook for ${input.event} to this URL`);
  const secret = newSecret();
  const row = await inTransaction(db, async (tx) => {
    const hooks = resellerHooksRepository(tx);
    // Revoked while the URL was looked up: its hooks are already deleted, this one would
    // outlive it (and nobody could delete it).
    if (!(await hooks.lockLiveCredential(reseller.resellerId)))
      throw new ResellerHookRefusal('the credential was revoked', 'FORBIDDEN');
    const same = await hooks.findOwn(reseller.resellerId, input.event, input.url);
    if (same) {
      if (same.status !== 'disabled') throw exists();
      return hooks.reenable(same.id, sealSecret(cipher, same.id, secret));
    }
    if ((await hooks.countOf(reseller.resellerId)) >= MAX_HOOKS_PER_RESELLER)
      throw new ResellerHookRefusal(`at most ${MAX_HOOKS_PER_RESELLER} webhooks`);
    const id = newId();
    return hooks.insert({
      id,
      owner_id: reseller.sellerId,
      reseller_id: reseller.resellerId,
      event_name: input.event,
      url: input.url,
      secret_ciphertext: sealSecret(cipher, id, secret),
    });
  });
  // Undefined: the seller's or another reseller's of this seller (one per owner, event, URL).
  if (!row) throw exists();
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
  const repo = resellerHooksRepository(db);
  const ofResellers = hooks.filter((h) => h.reseller_id !== null);
  if (ofResellers.length === 0) return [];
  // Revocation deletes a credential's hooks; should one survive it all the same, it hears
  // nothing (a booking_update carries the customers of the revoked reseller's bookings).
  const live = await repo.liveOf([...new Set(ofResellers.map((h) => h.reseller_id!))]);
  const listening = ofResellers.filter((h) => live.has(h.reseller_id!));
  if (listening.length === 0) return [];
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
