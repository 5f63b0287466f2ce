/**
 * `GET /checkout.js` after a failed load of the script (a file-descriptor limit reached in a
 * connection flood, say): that request fails, and the next loads it again. A failed load
 * was kept, and every later request for the script answered 500 until a restart.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type * as WidgetBundle from '../../src/checkout-page/widget-bundle.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const failures = vi.hoisted(() => ({ left: 1 }));

vi.mock('../../src/checkout-page/widget-bundle.js', async (original) => {
  const bundle = await original<typeof WidgetBundle>();
  return {
    ...bundle,
    loadWidget: async () => {
      if (failures.left > 0) {
        failures.left--;
        throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
      }
      return bundle.loadWidget();
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it('loads the script again after a failed load', async () => {
  const failed = await t.app.inject({ method: 'GET', url: '/checkout.js' });
  expect(failed.statusCode).toBe(500);
  expect(failed.body).not.toContain('EMFILE');
  const served = await t.app.inject({ method: 'GET', url: '/checkout.js' });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('application/javascript; charset=utf-8');
  expect(served.body).not.toContain('__BOOKING_CHECKOUT_SETTINGS__');
});
