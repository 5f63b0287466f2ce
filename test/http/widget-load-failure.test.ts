/**
 * `GET /checkout.js` after a failed load of the script. A failure for want of a resource (a
 * file-descriptor limit reached in a connection flood, say) fails that request, and the next
 * loads it again: the failed load was kept, and every later request for the script answered
 * 500 until a restart. Any other failure is kept: the route is public, and must not run a
 * build of the widget on every request.
 */
import { afterEach, expect, it, vi } from 'vitest';
import type * as WidgetBundle from '../../src/checkout-page/widget-bundle.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** The error codes the next loads fail with, in turn, and how many loads were made. */
const loads = vi.hoisted(() => ({ failWith: [] as string[], made: 0 }));

vi.mock('../../src/checkout-page/widget-bundle.js', async (original) => {
  const bundle = await original<typeof WidgetBundle>();
  return {
    ...bundle,
    loadWidget: async () => {
      loads.made++;
      const code = loads.failWith.shift();
      if (code) throw Object.assign(new Error(`${code}: the load failed`), { code });
      return bundle.loadWidget();
    },
  };
});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  loads.made = 0;
});

const script = () => t!.app.inject({ method: 'GET', url: '/checkout.js' });

it('loads the script again after a load that failed for want of file descriptors', async () => {
  t = await createTestApp();
  loads.failWith = ['EMFILE'];
  const failed = await script();
  expect(failed.statusCode).toBe(500);
  expect(failed.body).not.toContain('EMFILE');
  const served = await script();
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('application/javascript; charset=utf-8');
  expect(served.body).not.toContain('__BOOKING_CHECKOUT_SETTINGS__');
  expect(loads.made).toBe(2);
});

it('keeps any other failure rather than load again on every request', async () => {
  t = await createTestApp();
  loads.failWith = ['ENOENT'];
  expect((await script()).statusCode).toBe(500);
  expect((await script()).statusCode).toBe(500);
  expect(loads.made).toBe(1);
});
