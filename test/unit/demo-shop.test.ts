/**
 * The demo's sample shop (checkout-page/demo.ts) is made again only when the saved one is
 * really gone: its key refused (401) or its experience missing (404). A busy or failing
 * server (429, 5xx) says nothing about the shop, so the saved one is kept, and checked again
 * on the next visit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { demoShop, type DemoShop } from '../../src/checkout-page/demo.js';

const SAVED: DemoShop = { sellerId: 's'.repeat(24), experienceId: 'e'.repeat(24), key: 'pk_saved' };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** An app that answers the saved key's check with `checks` in turn and makes shops. */
function fakeApp(checks: number[]) {
  const calls: string[] = [];
  const answer = (statusCode: number, body: object) => ({
    statusCode,
    body: JSON.stringify(body),
    json: () => body,
  });
  const app = {
    inject: async (options: InjectOptions) => {
      const { method = 'GET' } = options;
      const url = typeof options.url === 'string' ? options.url : '';
      calls.push(`${method} ${url}`);
      if (method === 'GET') {
        const status = checks.shift() ?? 200;
        return answer(status, status === 200 ? { id: SAVED.experienceId } : {});
      }
      if (url === '/api/users') return answer(201, { id: 'n'.repeat(24), apiKey: 'key' });
      if (url === '/api/experiences') return answer(201, { id: 'x'.repeat(24) });
      return answer(201, { key: 'pk_new' });
    },
  } as unknown as FastifyInstance;
  return { app, calls, made: () => calls.filter((call) => call.startsWith('POST')).length };
}

function savedIn(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-demo-shop-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'demo.json'), JSON.stringify(SAVED));
  return dir;
}

const saved = (dir: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, 'demo.json'), 'utf8')) as DemoShop;

describe('the demo shop', () => {
  it.each([429, 500, 503])('keeps the saved shop when its check answers %i', async (status) => {
    const dir = savedIn();
    const { app, made, calls } = fakeApp([status, 200]);
    const shop = demoShop(app, dir);
    expect(await shop()).toEqual(SAVED);
    expect(made()).toBe(0);
    expect(saved(dir)).toEqual(SAVED);
    // Not settled by a failed check: the next visit checks again.
    expect(await shop()).toEqual(SAVED);
    expect(calls.filter((call) => call.startsWith('GET'))).toHaveLength(2);
    expect(made()).toBe(0);
  });

  it.each([401, 404])('makes a new shop when its check answers %i', async (status) => {
    const dir = savedIn();
    const { app, made } = fakeApp([status]);
    const shop = await demoShop(app, dir)();
    expect(shop).toEqual({ sellerId: 'n'.repeat(24), experienceId: 'x'.repeat(24), key: 'pk_new' });
    expect(made()).toBe(3);
    expect(saved(dir)).toEqual(shop);
  });

  it('checks a working shop once, then reuses it', async () => {
    const dir = savedIn();
    const { app, calls } = fakeApp([200]);
    const shop = demoShop(app, dir);
    expect(await shop()).toEqual(SAVED);
    expect(await shop()).toEqual(SAVED);
    expect(calls).toHaveLength(1);
  });
});
