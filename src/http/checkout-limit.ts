/**
 * Rate limits of publishable keys (checkout). A publishable key is public (it sits in web
 * pages), so anyone can send it: a limit that anyone can exhaust for everyone is a switch
 * that turns the seller's checkout off. Hence:
 *
 * - Only requests to routes that take a key are counted (any other is refused with 403 by
 *   the checkout guard, uncounted), and never the health checks.
 * - Each client address has its own allowance per key (`perAddress`), refused attempts
 *   included: one visitor, or one abuser.
 * - The key as a whole (`perKey`, every page embedding it) is a ceiling on guest bookings
 *   made: reaching it takes real bookings, which hold seats the seller sees and can cancel,
 *   with the key revoked; requests that book nothing never count towards it. A booking
 *   takes its place under the ceiling before it runs (counting after the 201 let every
 *   booking already in flight through) and gives it back once its answer shows it booked
 *   nothing: any status but 201, or a replay. The answer decides even when the client has
 *   gone (`prefinish`: Fastify skips onResponse for a request whose client hung up, and a
 *   place kept by those would let anyone switch the checkout off by hanging up).
 *
 * Fixed windows, in Redis when configured (shared by every instance; counters.ts says what
 * happens while it is away). The general limit (http/rate-limit.ts) applies per client
 * address on top.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from '../domain/errors.js';
import { expiringCounters, type Reservation } from './counters.js';
import type { SharedRedis } from './redis.js';
import { routeOf } from './route-of.js';
import { addressKey } from './client-address.js';

export interface CheckoutLimits {
  /** Guest bookings per window with one key. */
  perKey: number;
  /** Requests per window with one key from one client address. */
  perAddress: number;
  windowMs: number;
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The key a counted request carries: one sent to a route that takes keys. */
function keyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['x-publishable-key'];
  if (typeof key !== 'string' || key === '') return undefined;
  return routeOf(request).config.checkout === true ? digest(key) : undefined;
}

const books = (request: FastifyRequest) =>
  request.method === 'POST' && routeOf(request).url === '/api/orders';

export function checkoutLimitHooks(limits: CheckoutLimits, redis?: SharedRedis) {
  const counters = expiringCounters(redis, 'checkout-limit:');
  const refuse = (max: number, what: string, ttlMs: number) =>
    rateLimited(
      `Rate limit of ${max} ${what} per ${Math.round(limits.windowMs / 1000)} s with this publishable key reached; retry later.`,
      ttlMs,
    );

  async function admit(id: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (limits.perAddress > 0) {
      const { count, ttlMs } = await counters.hit(
        `a:${id}:${addressKey(request.ip)}`,
        limits.windowMs,
      );
      if (count > limits.perAddress) throw refuse(limits.perAddress, 'requests', ttlMs);
    }
    if (limits.perKey > 0 && books(request)) {
      const place = await counters.reserve(`k:${id}`, limits.windowMs);
      if (place.count > limits.perKey) {
        await place.release();
        throw refuse(limits.perKey, 'bookings', place.ttlMs);
      }
      reply.raw.once('prefinish', () => void keepIfBooked(place, request, reply));
    }
  }

  return {
    onRequest: (request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined => {
      const id = keyOf(request);
      return id === undefined ? undefined : admit(id, request, reply);
    },
  };
}

/** A booking's place under the ceiling, given back unless its answer shows a booking made. */
async function keepIfBooked(place: Reservation, request: FastifyRequest, reply: FastifyReply) {
  // A replayed answer (the same Idempotency-Key) booked nothing.
  const booked =
    reply.statusCode === 201 &&
    request.checkout !== undefined &&
    reply.getHeader('idempotent-replayed') === undefined;
  if (!booked) await place.release();
}
