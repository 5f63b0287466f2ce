/**
 * Slow, idle and malformed clients against a real listening server (these live below
 * Fastify's inject): idle sockets are closed, a flood of them does not stop normal requests,
 * and what Node's parser refuses (headers too large, headers too slow) is problem+json.
 * Timeouts are short here (HEADERS_TIMEOUT_MS and friends); the bounds the test waits for
 * are generous, never asserted as speed.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    HEADERS_TIMEOUT_MS: '1000',
    KEEP_ALIVE_TIMEOUT_MS: '500',
    SOCKET_TIMEOUT_MS: '3000',
    MAX_CONNECTIONS: '5000',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t.close());

interface Connection {
  socket: net.Socket;
  /** What the server sent before it closed the socket (rejects if still open after `ms`). */
  closed: (ms?: number) => Promise<string>;
}

/** A raw connection, watched from the start: a close is never missed. */
function connect(): Promise<Connection> {
  return new Promise((resolve, reject) => {
    let received = '';
    let closedAt: number | undefined;
    const socket = net.connect(port, '127.0.0.1', () => resolve({ socket, closed }));
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('close', () => (closedAt = Date.now()));
    const closed = (ms = 15_000) =>
      new Promise<string>((done, fail) => {
        if (closedAt !== undefined) return done(received);
        const timer = setTimeout(() => fail(new Error('the server left the socket open')), ms);
        socket.once('close', () => {
          clearTimeout(timer);
          done(received);
        });
      });
  });
}

const bodyOf = (raw: string) =>
  JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { code: string };

describe('idle and slow connections', () => {
  it('closes a connection that never sends a request, with 408 problem+json', async () => {
    const raw = await (await connect()).closed();
    expect(raw).toMatch(/^HTTP\/1\.1 408 /);
    expect(raw).toMatch(/content-type: application\/problem\+json/i);
    expect(bodyOf(raw).code).toBe('request_timeout');
  });

  it('closes a connection that sends its headers too slowly', async () => {
    const { socket, closed } = await connect();
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 300);
    try {
      expect(await closed()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
  });

  it('closes an idle keep-alive connection after its response', async () => {
    const { socket, closed } = await connect();
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    expect(await closed()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it(
    'keeps serving normal requests through a flood of idle sockets, and closes them',
    { timeout: 60_000 },
    async () => {
      // In batches, so the kernel's accept queue (511) never overflows: a connection it drops
      // there is the test's own artefact, half-open forever on the client side.
      const flood: Connection[] = [];
      for (let batch = 0; batch < 6; batch++) {
        flood.push(...(await Promise.all(Array.from({ length: 250 }, () => connect()))));
      }
      const closed = Promise.all(flood.map((connection) => connection.closed(40_000)));
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      const experiences = await fetch(`http://127.0.0.1:${port}/api/experiences`);
      expect(experiences.status).toBe(200);
      await closed;
      // The server's side of each closes too (it may count a moment longer than the client).
      const open = () =>
        new Promise<number>((resolve, reject) =>
          t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
      for (let i = 0; i < 100 && (await open()) > 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await open()).toBeLessThanOrEqual(5);
    },
  );
});

describe('what the HTTP parser refuses', () => {
  it('answers headers that are too large with 431 problem+json', async () => {
    const { socket, closed } = await connect();
    socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    const raw = await closed();
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw).toMatch(/content-type: application\/problem\+json/i);
    expect(bodyOf(raw).code).toBe('headers_too_large');
  });

  it('answers malformed HTTP with 400 problem+json', async () => {
    const { socket, closed } = await connect();
    socket.write('THIS IS NOT HTTP\r\n\r\n');
    const raw = await closed();
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(raw).code).toBe('bad_request');
  });
});
