import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, expectProblem, signUp, type TestApp } from '../helpers/app.js';

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' });
  });
  afterAll(async () => t.close());

  it('limits each credential separately and answers 429 in problem+json with headers', async () => {
    const ann = await signUp(t.app);
    const bob = await signUp(t.app);
    const responses = [];
    for (let i = 0; i < 4; i++) {
      responses.push(await as(t.app, ann, { method: 'GET', url: '/api/users/me' }));
    }
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    const last = responses[3]!;
    expectProblem(last, 429, 'rate_limited');
    expect(last.headers['ratelimit-limit']).toBe('3');
    expect(last.headers['ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Another credential has its own budget.
    expect((await as(t.app, bob, { method: 'GET', url: '/api/users/me' })).statusCode).toBe(200);
  });

  it('does not limit health checks', async () => {
    for (let i = 0; i < 6; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
  });
});
