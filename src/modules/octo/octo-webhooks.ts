/**
 * OCTo's webhooks (octo/webhooks): a reseller registers, lists and deletes its receivers
 * (hooks of the hooks module, so deliveries share its outbox, signing, retries and SSRF
 * guard; one disabled after failing deliveries is enabled again by registering it again),
 * and the bodies they receive: `{webhook, booking}` for `booking_update` (one of its bookings
 * confirmed, changed, cancelled or expired), `{webhook, productId, optionId, availability}`
 * for `availability_update` (a departure of a visible product changed).
 */
import type { BookingEnv } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Reseller } from '../../domain/caller.js';
import type { ApiKeyCipher } from '../../security/api-keys.js';
import { eventsFacade } from '../events/index.js';
import { experiencesFacade } from '../experiences/index.js';
import {
  ResellerHookRefusal,
  hooksFacade,
  type ResellerDelivery,
  type ResellerEvent,
  type ResellerHookView,
} from '../hooks/index.js';
import { resellerBookings } from '../orders/index.js';
import { resellersFacade } from '../resellers/index.js';
import { toOctoAvailability } from './availability.mapping.js';
import type { OctoBookingsService } from './octo-bookings.service.js';
import { fail } from './octo.errors.js';
import { OPTION_ID } from './product.mapping.js';
import { productOf } from './products.js';

export interface OctoWebhookView {
  id: string;
  event: ResellerEvent;
  url: string;
  useContactLanguage: boolean;
  /** Ours, not OCTo's: DISABLED after its deliveries kept failing (registering it again enables it). */
  status: 'ENABLED' | 'DISABLED';
}

const octoView = (hook: ResellerHookView): OctoWebhookView => ({
  id: hook.id,
  event: hook.event,
  url: hook.url,
  useContactLanguage: false,
  status: hook.status === 'enabled' ? 'ENABLED' : 'DISABLED',
});

/** Only a reseller credential has webhooks here (the seller's own key has the API's hooks). */
function credentialOf(reseller: Reseller): Reseller & { resellerId: string } {
  if (reseller.resellerId === null)
    fail(
      'FORBIDDEN',
      'webhooks belong to reseller credentials; the seller has /api/users/{id}/hooks',
    );
  return { ...reseller, resellerId: reseller.resellerId };
}

export function octoWebhooksService(deps: { db: Db; cipher: ApiKeyCipher; env: BookingEnv }) {
  const { db } = deps;
  return {
    async create(
      reseller: Reseller,
      input: { url: string; event: ResellerEvent },
    ): Promise<OctoWebhookView & { secret: string }> {
      try {
        const { secret, ...hook } = await hooksFacade.resellers.create(
          deps,
          credentialOf(reseller),
          input,
        );
        return { ...octoView(hook), secret };
      } catch (error) {
        if (error instanceof ResellerHookRefusal) fail(error.code, error.message);
        throw error;
      }
    },

    async list(reseller: Reseller): Promise<OctoWebhookView[]> {
      const hooks = await hooksFacade.resellers.list(db, credentialOf(reseller).resellerId);
      return hooks.map(octoView);
    },

    async remove(reseller: Reseller, id: string): Promise<void> {
      if (!(await hooksFacade.resellers.remove(db, credentialOf(reseller).resellerId, id)))
        fail('BAD_REQUEST', `no webhook ${id}`);
    },
  };
}

export type OctoWebhooksService = ReturnType<typeof octoWebhooksService>;

/** The body a reseller's hook receives, for the hooks module's dispatcher. */
export function octoWebhookRenderer(db: Db, bookings: Pick<OctoBookingsService, 'viewOf'>) {
  return async (delivery: ResellerDelivery): Promise<Record<string, unknown>> => {
    const object = delivery.object as { id: string; experience?: { id: string }; start?: string };
    if (delivery.eventName === 'event.update') {
      const webhook = { id: delivery.hookId, event: 'availability_update', url: delivery.url };
      const experience = await experiencesFacade.find(db, object.experience!.id);
      const start = new Date(object.start!);
      const [departure] = experience
        ? await eventsFacade.departuresAt(db, experience, [start])
        : [];
      if (!experience || !departure)
        return {
          webhook,
          productId: object.experience!.id,
          optionId: OPTION_ID,
          availability: null,
        };
      const product = productOf(experience);
      return {
        webhook,
        productId: product.id,
        optionId: OPTION_ID,
        availability: toOctoAvailability(product, departure, { now: new Date() }),
      };
    }
    const webhook = { id: delivery.hookId, event: 'booking_update', url: delivery.url };
    const reseller = await resellersFacade.find(db, delivery.resellerId);
    const read = await resellerBookings.read(db, object.id);
    // A revoked reseller's hooks hear nothing (reseller-hooks.ts); a delivery fanned out
    // before the revocation must not carry its bookings' customers either.
    if (!reseller || reseller.revoked || !read) return { webhook, booking: null };
    return { webhook, booking: await bookings.viewOf(read, reseller) };
  };
}
