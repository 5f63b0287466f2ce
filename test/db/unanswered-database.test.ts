/**
 * A database that does not answer, or is down: `/readyz` answers 503 within its bound
 * (READY_TIMEOUT_MS) instead of waiting for the pool's 10 s connection timeout or the
 * kernel's retransmissions, and `/metrics` still answers 200 with the process and pool
 * metrics, the outbox's numbers marked stale (docs/operations.md, "What to watch").
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { READY_TIMEOUT_MS } from '../../src/http/health.routes.js';
import { OUTBOX_READ_MS } from '../../src/http/metrics.routes.js';
import { expectProblem, testConfig } from '../helpers/app.js';

/**
 * A "database" that accepts connections and never says a word: what a blackholed route or
 * a hung server looks like to the pool (every statement waits for a connection).
 */
let silent: net.Server;
const held = new Set<net.Socket>();
let hung: { app: FastifyInstance; database: Database };
let down: { app: FastifyInstance; database: Database };

async function appOn(url: string) {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  const app = await buildApp(testConfig({ LOG_LEVEL: 'silent' }), { database });
  return { app, database };
}

beforeAll(async () => {
  silent = net.createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  hung = await appOn(`postgres://x@127.0.0.1:${port}/x`);
  // A server nobody listens on: connections are refused.
  down = await appOn('postgres://x@127.0.0.1:9/x');
});
afterAll(async () => {
  // Cut the held connections so the pool's attempts fail now and it closes.
  for (const socket of held) socket.destroy();
  silent.close();
  for (const { app, database } of [hung, down]) {
    await app?.close();
    await database?.close();
  }
});

async function timed(app: FastifyInstance, url: string) {
  const started = performance.now();
  const response = await app.inject({ method: 'GET', url });
  return { response, ms: performance.now() - started };
}

describe('a database that does not answer', () => {
  it('makes /readyz answer 503 within its bound, every time', async () => {
    for (let i = 0; i < 2; i++) {
      const { response, ms } = await timed(hung.app, '/readyz');
      expectProblem(response, 503, 'service_unavailable');
      expect(ms).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(READY_TIMEOUT_MS + 700);
    }
    expect((await hung.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  }, 15_000);

  it('leaves /metrics answering within its bound, the outbox numbers marked stale', async () => {
    for (let i = 0; i < 2; i++) {
      const { response, ms } = await timed(hung.app, '/metrics');
      expect(response.statusCode, response.body).toBe(200);
      expect(ms).toBeLessThan(OUTBOX_READ_MS + 700);
      expect(response.body).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(response.body).toMatch(/^db_pool_connections\{state="in_use"\} \d+/m);
      expect(response.body).toMatch(/^outbox_pending 0$/m);
      expect(response.body).toMatch(/^outbox_stats_fresh 0$/m);
    }
  }, 15_000);
});

describe('a database that is down', () => {
  it('leaves /metrics answering 200, the outbox numbers marked stale', async () => {
    const response = await down.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toMatch(/^process_cpu_seconds_total \S+/m);
    expect(response.body).toMatch(/^db_pool_waiting \d+/m);
    expect(response.body).toMatch(/^outbox_stats_fresh 0$/m);
    expectProblem(
      await down.app.inject({ method: 'GET', url: '/readyz' }),
      503,
      'service_unavailable',
    );
  });
});
