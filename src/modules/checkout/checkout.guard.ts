/**
 * Requests made with a publishable key (`X-Publishable-Key`, the checkout button's): who
 * they are for, and the little they may do. A live key makes the request a guest checkout
 * for its seller (`request.checkout`; there is no caller). Only routes that opt in with
 * `config: { checkout: true }` take such requests (reading the seller's visible
 * experiences and their availability, quoting, booking as a guest); any other answers 403,
 * so a key copied from a web page can never list orders or read customers. Reads (GET and
 * HEAD) are held to the key's seller: its experiences only (another seller's is a 404), its
 * lists only.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import type { Checkout } from '../../domain/caller.js';
import { DomainError, forbidden, notFound } from '../../domain/errors.js';
import { experiencesFacade as experiences } from '../experiences/index.js';
import { publishableKeysRepository } from './publishable-keys.repository.js';
import { routeOf } from '../../http/route-of.js';

declare module 'fastify' {
  interface FastifyRequest {
    checkout?: Checkout;
  }
  interface FastifyContextConfig {
    /** The route takes requests made with a publishable key (guest checkout). */
    checkout?: boolean;
  }
}

const HEADER = 'x-publishable-key';
const READS = new Set(['GET', 'HEAD']);

export function checkoutHooks({ db }: { db: Db }) {
  return {
    /** onRequest, after authentication: the key's checkout, and whether the route takes it. */
    authenticate: async (request: FastifyRequest): Promise<void> => {
      const key = request.headers[HEADER];
      if (key === undefined) return;
      if (typeof key !== 'string' || key === '' || request.caller) {
        throw new DomainError(
          'invalid_credentials',
          'Send one credential: X-API-KEY, or X-Publishable-Key for a checkout.',
        );
      }
      const row = await publishableKeysRepository(db).findLive(key);
      if (!row) throw new DomainError('invalid_credentials', 'The publishable key is not valid.');
      if (routeOf(request).config.checkout !== true) {
        throw forbidden(
          'A publishable key only reads the seller’s experiences and availability, quotes and books: use an API key for anything else.',
        );
      }
      request.checkout = { keyId: row.id, sellerId: row.seller_id };
    },

    /**
     * preHandler: reads held to the key's seller. An experience (or its availability) of
     * another seller does not exist for the key; a list filters on the key's seller, and a
     * list asking for another seller's answers 403.
     */
    holdToSeller: async (request: FastifyRequest): Promise<void> => {
      const checkout = request.checkout;
      // HEAD too: Fastify answers it with the GET route (same config), headers included.
      if (!checkout || !READS.has(request.method)) return;
      const params = request.params as { id?: string };
      if (params.id !== undefined) {
        const experience = await experiences.find(db, params.id);
        if (experience?.sellerId !== checkout.sellerId) throw notFound(`Experience ${params.id}`);
        return;
      }
      const query = request.query as Record<string, unknown>;
      const asked = query.seller;
      if (asked !== undefined && asked !== checkout.sellerId)
        throw forbidden('A publishable key reads its own seller’s experiences only.');
      query.seller = checkout.sellerId;
    },
  };
}
