/** routeOf (src/http/route-of.ts): the route's options, with Fastify's getter read once per request. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { decorateRouteOf, routeOf } from '../../../src/http/route-of.js';

describe('routeOf', () => {
  it("gives each request its own route's options, reading Fastify's getter once", async () => {
    const app = Fastify();
    decorateRouteOf(app);
    let reads = 0;
    app.addHook('onRequest', async (request) => {
      let owner: object | null = request;
      while (owner && !Object.getOwnPropertyDescriptor(owner, 'routeOptions'))
        owner = Object.getPrototypeOf(owner) as object | null;
      const descriptor = Object.getOwnPropertyDescriptor(owner!, 'routeOptions')!;
      Object.defineProperty(request, 'routeOptions', {
        get() {
          reads++;
          return descriptor.get!.call(this) as unknown;
        },
      });
    });
    for (const url of ['/a/:id', '/b']) {
      app.get(url, { config: { expands: url } as never }, async (request) => {
        const first = routeOf(request);
        return { url: first.url, config: first.config, same: routeOf(request) === first };
      });
    }
    for (const [path, url] of [
      ['/a/1', '/a/:id'],
      ['/b', '/b'],
    ]) {
      reads = 0;
      const body = (await app.inject(path!)).json();
      expect(body).toMatchObject({ url, config: { expands: url }, same: true });
      expect(reads).toBe(1);
    }
    await app.close();
  });
});
