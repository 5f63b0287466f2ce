/**
 * A 304 carries no Content-Length but the 200's own (RFC 9110 §8.6): Fastify wrote
 * `content-length: 0` for the empty answer, which a cache that refreshes its stored headers
 * from a 304 could apply to its copy. A GET's 304 has none; a HEAD's has the one its 200 has
 * (Fastify measures every HEAD's payload). Read off a real socket, next to the 200's.
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';

let t: TestApp;
let shop: Shop;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  shop = await openShop(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

/** The status line and headers (lower-cased names) of one request over a fresh socket. */
function head(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; raw: string }>(
    (resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let raw = '';
      socket.on('data', (chunk) => (raw += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => {
        const [top = '', ...lines] = raw.split('\r\n\r\n')[0]!.split('\r\n');
        const parsed: Record<string, string> = {};
        for (const line of lines) {
          const at = line.indexOf(':');
          parsed[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
        }
        resolve({ status: Number(top.split(' ')[1]), headers: parsed, raw });
      });
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra.join('')}\r\n`,
      );
    },
  );
}

describe('304 Not Modified', () => {
  it.each(['GET', 'HEAD'])('to a %s has the ETag, no body, no other length', async (method) => {
    const path = `/api/experiences/${shop.experienceId}`;
    const full = await head(method, path);
    expect(full.status).toBe(200);
    const length = full.headers['content-length'];
    expect(Number(length)).toBeGreaterThan(0);
    const etag = full.headers.etag!;
    const notModified = await head(method, path, { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers['content-length']).toBe(method === 'GET' ? undefined : length);
    expect(notModified.headers['transfer-encoding']).toBeUndefined();
    expect(notModified.raw.endsWith('\r\n\r\n')).toBe(true);
  });
});
