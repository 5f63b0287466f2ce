/**
 * Connection slots: what Node's own timeouts leave open (docs/operations.md, "Slow and idle
 * clients"). Node closes a connection that is slow to send its headers (HEADERS_TIMEOUT_MS)
 * and an idle keep-alive one (KEEP_ALIVE_TIMEOUT_MS); this module adds
 *
 * - a client that does not read: a response it has not taken for `sendTimeoutMs` (nothing
 *   written to the kernel meanwhile) closes the connection. Node's socket timeout would wait
 *   SOCKET_TIMEOUT_MS, twice over, because it counts the queued write as activity;
 * - a connection that never completes a request is closed `headersTimeoutMs` after it opened
 *   even where Node's headers timer does not cover it (Node versions differ there);
 * - the cap (`maxConnections`) never turns away a health check or a client with a request
 *   in flight because of idle ones: at the cap a new connection closes the oldest connection
 *   that has not sent a request yet, else the one resting longest between requests (its
 *   answers all sent: a keep-alive connection, or one still trickling a body that was
 *   answered), else the oldest one stalled on a client that does not read; only when every
 *   slot carries a request in flight is the new one refused. Resting connections were
 *   counted as real clients: twenty keep-alive or slow-body connections held a cap of
 *   twenty, `/healthz` included, for as long as they kept coming back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface SlotOptions {
  maxConnections: number;
  headersTimeoutMs: number;
  sendTimeoutMs: number;
}

interface Slot {
  opened: number;
  /** Requests whose answer has not been sent (more than one only when pipelined). */
  inFlight: number;
  /** Bytes queued for the client at the last sweep, and since when nothing has left. */
  pending: number;
  stalledSince: number | undefined;
}

const SWEEP_MS = 1000;
/** Node's own 408 normally comes first; this is the backstop. */
const FIRST_REQUEST_GRACE_MS = 2000;
const SUMMARY_EVERY_MS = 10_000;

export function guardConnectionSlots(app: FastifyInstance, options: SlotOptions): void {
  const server = app.server;
  // In insertion order, so the first entries are the oldest.
  const slots = new Map<Socket, Slot>();
  const waiting = new Set<Socket>();
  /** Answered everything asked so far; in the order they came to rest. */
  const resting = new Set<Socket>();
  const stalled = new Set<Socket>();
  const closed = { idle: 0, resting: 0, stalled: 0, refused: 0, silent: 0 };
  let lastSummary = 0;

  const release = (socket: Socket) => {
    slots.delete(socket);
    waiting.delete(socket);
    resting.delete(socket);
    stalled.delete(socket);
  };
  const close = (socket: Socket, reason: keyof typeof closed) => {
    closed[reason] += 1;
    release(socket);
    socket.destroy();
  };

  server.on('connection', (socket: Socket) => {
    if (slots.size >= options.maxConnections) {
      const victim = first(waiting) ?? first(resting) ?? first(stalled);
      if (!victim) return close(socket, 'refused');
      close(victim, waiting.has(victim) ? 'idle' : resting.has(victim) ? 'resting' : 'stalled');
    }
    slots.set(socket, { opened: Date.now(), inFlight: 0, pending: 0, stalledSince: undefined });
    waiting.add(socket);
    socket.once('close', () => release(socket));
  });
  // Headers complete: a request in flight until its answer is sent.
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    const slot = slots.get(socket);
    if (!slot) return;
    waiting.delete(socket);
    resting.delete(socket);
    slot.inFlight += 1;
    response.once('finish', () => {
      slot.inFlight -= 1;
      if (slot.inFlight === 0 && slots.has(socket)) resting.add(socket);
    });
  });

  const sweep = () => {
    const now = Date.now();
    for (const socket of waiting) {
      if (now - slots.get(socket)!.opened < options.headersTimeoutMs + FIRST_REQUEST_GRACE_MS) {
        break;
      }
      close(socket, 'silent');
    }
    for (const [socket, slot] of slots) {
      const pending = socket.writableLength;
      if (pending === 0 || pending < slot.pending) {
        // Written to the kernel (the only progress Node lets us see): not stalled.
        slot.stalledSince = pending === 0 ? undefined : now;
        stalled.delete(socket);
      } else if (slot.stalledSince === undefined) {
        slot.stalledSince = now;
      } else {
        // Seen stuck at two sweeps in a row: the cap may take it before an established client.
        stalled.add(socket);
        if (now - slot.stalledSince >= options.sendTimeoutMs) close(socket, 'stalled');
      }
      slot.pending = pending;
    }
    if (now - lastSummary >= SUMMARY_EVERY_MS && Object.values(closed).some((n) => n > 0)) {
      app.log.warn(
        { ...closed, open: slots.size, maxConnections: options.maxConnections },
        'connections closed to keep slots free (idle: at the cap without a request; resting: at the cap between requests; stalled: not reading; silent: no request in time; refused: cap full of requests in flight)',
      );
      Object.assign(closed, { idle: 0, resting: 0, stalled: 0, refused: 0, silent: 0 });
      lastSummary = now;
    }
  };
  const timer = setInterval(sweep, SWEEP_MS).unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

function first<T>(set: Set<T>): T | undefined {
  return set.values().next().value;
}
