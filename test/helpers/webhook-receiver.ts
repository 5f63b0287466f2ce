/**
 * A real HTTP server on a loopback port that records every webhook it receives; how it
 * answers is up to the test (a status per request, or a delay past the sender's timeout);
 * and a trap: a loopback port that counts every connection, for deliveries that must not go.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: {
    eventName: string;
    data: Record<string, unknown>;
    audit?: Record<string, unknown>;
    actor?: { id: string };
  };
  at: number;
}

export interface Receiver {
  url: (path?: string) => string;
  received: Received[];
  /** How the next requests are answered: status code, and an optional delay before it. */
  answer: (reply: (request: Received) => { status: number; delayMs?: number }) => void;
  /** Resolves once `predicate` holds for what was received, or rejects after `timeoutMs`. */
  waitFor: (predicate: (all: Received[]) => boolean, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let reply: (request: Received) => { status: number; delayMs?: number } = () => ({
    status: 204,
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Received = {
        path: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [
            k,
            Array.isArray(v) ? v.join(',') : (v ?? ''),
          ]),
        ),
        body,
        json: JSON.parse(body || 'null'),
        at: Date.now(),
      };
      received.push(entry);
      const { status, delayMs = 0 } = reply(entry);
      const timer = setTimeout(() => res.writeHead(status).end(`answered ${status}`), delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (fn) => {
      reply = fn;
    },
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) {
          throw new Error(
            `receiver: condition not met in ${timeoutMs} ms; got ${received
              .map((r) => r.json?.eventName)
              .join(', ')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a delivery with the Standard Webhooks library, as a receiver would; throws if bad. */
export function verify(secret: string, delivery: Received): unknown {
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.headers['webhook-id']!,
    'webhook-timestamp': delivery.headers['webhook-timestamp']!,
    'webhook-signature': delivery.headers['webhook-signature']!,
  });
}

export interface Trap {
  port: number;
  /** How many connections reached the port. */
  connections: () => number;
  close: () => Promise<void>;
}

/** A TCP port on 127.0.0.1 that counts connections (and closes each at once). */
export async function startTrap(): Promise<Trap> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
