/**
 * `/demo` (docs/widget.md): the checkout widget on a sample seller made on the first visit
 * through the service's own API, remembered in DATA_DIR; a page with its own strict CSP.
 * On by default only on the embedded database, in a sandbox or listening on loopback (what
 * `npm start` does); DEMO_PAGE turns it on or off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-demo-'));
let t: TestApp;
beforeAll(async () => {
  // A sandbox on the embedded database (the test database is handed in): on by default.
  t = await createTestApp({ DATA_DIR: dataDir, BOOKING_ENV: 'sandbox' });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /demo', () => {
  it('serves the widget on a sample seller, the same one on every visit', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/demo' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['content-security-policy']).toContain("script-src 'self'");
    expect(first.body).toContain('<script src="/checkout.js" async></script>');
    const key = /data-key="(pk_[\w-]+)"/.exec(first.body)?.[1];
    const experience = /data-experience="([0-9a-f]{24})"/.exec(first.body)?.[1];
    expect(key).toBeDefined();
    // The sample is real: the key reads the experience, with departures.
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/experiences/${experience}`,
      headers: { 'x-publishable-key': key! },
    });
    expect(read.json()).toMatchObject({ name: 'Sunrise kayak tour', currency: 'EUR' });
    const again = await t.app.inject({ method: 'GET', url: '/demo' });
    expect(again.body).toContain(`data-key="${key}"`);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'))).toMatchObject({
      key,
      experienceId: experience,
    });
  });

  it('is not served with DEMO_PAGE=false', async () => {
    const off = await createTestApp({ DEMO_PAGE: 'false' });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('is not served by default in production listening beyond loopback, even embedded', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-demo-prod-'));
    const production = await createTestApp({
      DATA_DIR: dir,
      BOOKING_ENV: 'production',
      HOST: '0.0.0.0',
    });
    try {
      expect((await production.app.inject({ method: 'GET', url: '/demo' })).statusCode).toBe(404);
      // Nothing was made: no sample seller, no demo.json.
      expect(fs.existsSync(path.join(dir, 'demo.json'))).toBe(false);
    } finally {
      await production.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
