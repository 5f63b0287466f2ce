/**
 * The widget's CORS written out once (checkout-page/widget-cors.ts) answers every request
 * as @fastify/cors did with the per-request delegator it replaced: the same status, body and
 * headers, for every combination of method, path, Origin, publishable key, preflight
 * headers and a `Vary` set before it; only a malformed preflight differs, refused with the
 * service's error (test/http/widget.test.ts holds its problem format) where the library
 * answered a bare text 400, and a route's own `Vary`, which keeps `Origin` (the headers are
 * set as the answer is sent, so refusals made before the widget's hooks carry them too).
 */
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WIDGET_CORS,
  fromWidget,
  registerWidgetCors,
} from '../../../src/checkout-page/widget-cors.js';

/** The same routes in both apps, and a hook before CORS that may set `Vary` first. */
async function appWith(register: (app: FastifyInstance) => Promise<void>) {
  const app = Fastify();
  app.addHook('onRequest', (request, reply, done) => {
    const vary = request.headers['x-test-vary'];
    if (typeof vary === 'string') void reply.header('vary', vary);
    done();
  });
  await register(app);
  app.get('/api/experiences', async () => ({ data: [] }));
  app.post('/api/orders', async (_request, reply) => reply.code(201).send({ id: 'o1' }));
  app.get('/api/orders/:id', async (_request, reply) =>
    reply.header('vary', 'accept').send({ id: 'o1' }),
  );
  await app.ready();
  return app;
}

async function asBefore(app: FastifyInstance) {
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(null, fromWidget(request) ? WIDGET_CORS : { origin: false }),
  });
}

const product = <T>(lists: T[][]): T[][] =>
  lists.reduce<T[][]>((all, list) => all.flatMap((so) => list.map((x) => [...so, x])), [[]]);

describe('the widget’s CORS', () => {
  let before: FastifyInstance;
  let now: FastifyInstance;
  beforeAll(async () => {
    before = await appWith(asBefore);
    now = await appWith(async (app) => registerWidgetCors(app));
  });
  afterAll(async () => {
    await before.close();
    await now.close();
  });

  const methods = ['GET', 'POST', 'OPTIONS', 'HEAD'] as const;
  const urls = ['/api/experiences', '/api/orders', '/api/orders/o1', '/nothing'];
  const maybe = (name: string, values: string[]) => [
    undefined,
    ...values.map((value) => [name, value] as const),
  ];
  const headerSets = product<readonly [string, string] | undefined>([
    maybe('origin', ['https://tours.example']),
    maybe('x-publishable-key', ['pk_test']),
    maybe('access-control-request-method', ['POST']),
    maybe('access-control-request-headers', [
      'content-type,x-publishable-key',
      'X-Publishable-Key',
      'content-type,x-api-key',
    ]),
    maybe('x-test-vary', ['Accept-Encoding', 'origin', '*', 'accept, ORIGIN']),
  ]).map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== undefined)));

  it('answers as @fastify/cors did, for every combination', async () => {
    let compared = 0;
    let preflights = 0;
    let malformed = 0;
    let varied = 0;
    for (const method of methods)
      for (const url of urls)
        for (const headers of headerSets) {
          const ask = { method, url, headers };
          const [a, b] = await Promise.all([before.inject(ask), now.inject(ask)]);
          const { date: _a, ...expected } = a.headers;
          const { date: _b, ...actual } = b.headers;
          const label = JSON.stringify(ask);
          expect(b.statusCode, label).toBe(a.statusCode);
          compared += 1;
          if (a.body === 'Invalid Preflight Request') {
            malformed += 1;
            expect(b.json(), label).toMatchObject({ code: 'validation_failed' });
            continue;
          }
          if (url === '/api/orders/o1' && a.headers.vary !== b.headers.vary) {
            // The one other difference, on purpose: a route that sets its own Vary replaced
            // the library's `Origin` (set on receiving); set as the answer is sent, it stays
            // (`accept, Origin`), so a cache never serves one origin's answer to another.
            varied += 1;
            expect(String(b.headers.vary), label).toMatch(/^accept, Origin$/);
            delete expected.vary;
            delete actual.vary;
          }
          expect(actual, label).toEqual(expected);
          expect(b.body, label).toBe(a.body);
          if (b.statusCode === 204) preflights += 1;
        }
    // The matrix reaches every branch: widget preflights answered, strict ones refused.
    expect(compared).toBe(methods.length * urls.length * headerSets.length);
    expect(preflights).toBeGreaterThan(0);
    expect(malformed).toBeGreaterThan(0);
    expect(varied).toBeGreaterThan(0);
  });

  it('gives a widget preflight its allow-lists and a plain request only Vary', async () => {
    const preflight = await now.inject({
      method: 'OPTIONS',
      url: '/api/orders',
      headers: {
        origin: 'https://tours.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-publishable-key',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe(
      'content-type, x-publishable-key, idempotency-key, x-api-version',
    );
    expect(preflight.headers['access-control-max-age']).toBe('600');
    const plain = await now.inject({
      method: 'GET',
      url: '/api/experiences',
      headers: { origin: 'https://tours.example', 'x-api-key': 'k' },
    });
    expect(plain.headers.vary).toBe('Origin');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });
});
