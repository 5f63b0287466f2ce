/**
 * Draining before a shutdown (server.ts on SIGTERM, SHUTDOWN_DRAIN_MS): the instance still
 * serves, but /readyz answers 503 so a balancer takes it out, and every answer closes its
 * connection so the balancer's next requests open connections elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectProblem, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('draining', () => {
  it('is ready, and keeps connections open, until it drains', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers.connection).not.toBe('close');
  });

  it('answers /readyz 503 while draining, still serves, and closes every connection', async () => {
    t.app.readiness.draining = true;
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(expectProblem(ready, 503, 'service_unavailable').detail).toBe(
        'This instance is shutting down.',
      );
      expect(ready.headers.connection).toBe('close');
      const served = await t.app.inject({ method: 'GET', url: '/api/experiences' });
      expect(served.statusCode).toBe(200);
      expect(served.headers.connection).toBe('close');
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      t.app.readiness.draining = false;
    }
  });
});
