/// <reference lib="dom" />
/**
 * The checkout widget in a real browser (Debian's Chromium, driven by playwright-core; no
 * browser is downloaded): a plain page on another origin, with hostile CSS, embeds the two
 * lines of docs/widget.md; a guest books through the widget with the keyboard only, and
 * the order exists; a departure sold out while the guest chooses is said in words; on a
 * 360 px wide phone the dialog fits. Screenshots go to test-results/widget/ (CI artifacts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve('test-results/widget');
/** The operator's site's host name, mapped to this machine in Chromium (no DNS here). */
const SITE_HOST = 'shop.test';

let t: TestApp;
let api: string;
let site: http.Server;
let siteUrl: string;
let browser: Browser;
let seller: Account;
let experienceId: string;
let key: string;

/** The operator's page: another origin, CSS that would wreck an unisolated widget. */
const hostPage = (apiOrigin: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbour Tours</title>
<style>
  * { font-family: "Comic Sans MS", cursive !important; }
  button { background: hotpink; transform: rotate(3deg); }
  div { border: 5px dashed lime; }
  input { display: none; }
</style>
<script src="${apiOrigin}/checkout.js" async></script>
</head><body>
<h1>Harbour Tours</h1>
<p>Kayak trips every morning.</p>
<button id="book" data-seller="${seller.id}" data-experience="${experienceId}" data-key="${key}">Book now</button>
</body></html>`;

beforeAll(async () => {
  // /demo is off by default outside a sandbox; its test below needs it.
  t = await createTestApp({ DEMO_PAGE: 'true' });
  api = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  const experience = await as(t.app, seller, {
    method: 'POST',
    url: '/api/experiences',
    payload: {
      name: 'Harbour Kayak',
      price: 30,
      priceType: 'person',
      currency: 'EUR',
      duration: 90,
      timezone: 'UTC',
      group: { outingMax: 4 },
      demographics: [
        { label: 'Adult', code: 'adult' },
        { label: 'Child', code: 'child', price: 15 },
      ],
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [1000, 1500] },
      ],
    },
  });
  experienceId = experience.json().id;
  key = (
    await as(t.app, seller, {
      method: 'POST',
      url: `/api/sellers/${seller.id}/publishable-keys`,
      payload: { label: 'browser test' },
    })
  ).json().key;
  // The operator's site, on another origin than the API's 127.0.0.1 and on plain HTTP, as
  // many small operators' sites are: not a secure context (localhost would be one, and hid
  // a widget whose "Book" needed crypto.randomUUID, which only secure pages have).
  site = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(hostPage(api));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://${SITE_HOST}:${(site.address() as AddressInfo).port}/`;
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${SITE_HOST} 127.0.0.1`,
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await t?.close();
});

async function openPage(viewport = { width: 1024, height: 768 }, locale = 'en-GB'): Promise<Page> {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  await page.goto(siteUrl);
  expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
  await page.waitForFunction(
    () => document.documentElement.getAttribute('data-booking-checkout') === 'ready',
  );
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });

/** The text (or accessible name) of the focused element, inside the widget's shadow root too. */
const focusedText = (page: Page) =>
  page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    return element?.getAttribute('aria-label') ?? element?.textContent ?? '';
  });

const ordersOfSeller = async () =>
  (await as(t.app, seller, { method: 'GET', url: '/api/orders?limit=100' })).json().data as {
    shortCode: string;
    source: string;
    customerName: string;
    items: { quantity: number; demographics: { code: string; quantity: number }[] }[];
  }[];

describe('the checkout widget in Chromium', () => {
  it('books with the keyboard only, and the order exists with its short code', async () => {
    const page = await openPage();
    await shot(page, '1-host-page');
    // The button is the page's only control: one Tab reaches it.
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Book now');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expect
      .poll(() => dialog.getByRole('heading', { level: 2 }).innerText())
      .toBe('Harbour Kayak');
    await shot(page, '2-dates');
    // Focus starts on the first date; Enter picks it, then the first time.
    await page.keyboard.press('Enter');
    await expect
      .poll(() => dialog.getByRole('heading', { level: 2 }).innerText())
      .toMatch(/\w+day/);
    await shot(page, '3-times');
    await page.keyboard.press('Enter');
    // Guests: one adult preset; a child added by typing; the quote follows.
    await expect.poll(() => dialog.getByText(/Total: €/).innerText()).toBe('Total: €30.00');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1');
    await expect.poll(() => dialog.getByText(/Total: €/).innerText()).toBe('Total: €45.00');
    await shot(page, '4-guests');
    // From the child's quantity: Back, then Your details.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Your details');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kim@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('+44 20 7946 0000');
    await shot(page, '5-details');
    await page.keyboard.press('Enter');
    const code = dialog.locator('[data-short-code]');
    await expect.poll(() => code.isVisible(), { timeout: 15_000 }).toBe(true);
    const shortCode = await code.innerText();
    expect(shortCode).toMatch(/^[A-Z0-9]{8}$/);
    await shot(page, '6-booked');
    const order = (await ordersOfSeller()).find((o) => o.shortCode === shortCode);
    expect(order).toMatchObject({ source: 'checkout', customerName: 'Kim Keyboard' });
    expect(order!.items[0]!.quantity).toBe(2);
    // Escape closes the dialog and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('book');
    await page.context().close();
  });

  it('keeps the focus inside the dialog, and its controls named for screen readers', async () => {
    const page = await openPage();
    await page.click('#book');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('group').isVisible()).toBe(true);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await page.getByRole('button', { name: 'Close' }).count()).toBe(1);
    for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
    const inside = await page.evaluate(
      () => document.activeElement?.hasAttribute('data-booking-widget') ?? false,
    );
    expect(inside).toBe(true);
    await page.context().close();
  });

  it('says so in words when the departure sells out while the guest chooses', async () => {
    const page = await openPage();
    await page.click('#book');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('group').getByRole('button').first().click();
    await dialog.getByRole('button', { name: /^15:00/ }).click();
    await expect.poll(() => dialog.getByText(/Total: €/).innerText()).toBe('Total: €30.00');
    await dialog.getByRole('button', { name: 'Your details' }).click();
    await dialog.getByLabel('Full name').fill('Late Guest');
    await dialog.getByLabel('Email').fill('late@example.com');
    await dialog.getByLabel('Phone').fill('+1 555 0100');
    // Meanwhile, someone else takes the last seats of that departure (the first date that
    // still has a 15:00 departure is the one the guest chose).
    const availability = (
      await as(t.app, null, {
        method: 'GET',
        url: `/api/experiences/${experienceId}/availability?start=${new Date().toISOString().slice(0, 10)}&end=${new Date(Date.now() + 42 * 86_400_000).toISOString().slice(0, 10)}`,
      })
    ).json<Record<string, Record<string, number>>>();
    // The widget offers only departures that have not started (the experience is in UTC).
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const started = now.getUTCHours() * 100 + now.getUTCMinutes() >= 1500;
    const day = Object.keys(availability).find(
      (d) => (availability[d]!['1500'] ?? 0) > 0 && (d > today || !started),
    )!;
    const buyer = await signUp(t.app);
    const taken = await as(t.app, buyer, {
      method: 'POST',
      url: '/api/orders',
      payload: {
        items: [
          {
            experience: { id: experienceId },
            arrival: day,
            arrivalTime: 1500,
            quantity: availability[day]!['1500'],
          },
        ],
      },
    });
    expect(taken.statusCode, taken.body).toBe(201);
    await dialog.getByRole('button', { name: 'Book' }).click();
    const alert = dialog.getByRole('alert');
    await expect
      .poll(() => alert.innerText(), { timeout: 15_000 })
      .toBe('Sold out while you were choosing.');
    await shot(page, '7-sold-out');
    expect((await ordersOfSeller()).filter((o) => o.customerName === 'Late Guest')).toEqual([]);
    await page.context().close();
  });

  it('fits a 360 px wide phone, in French with the browser’s formats', async () => {
    const page = await openPage({ width: 360, height: 740 }, 'fr-FR');
    await page.click('#book');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('group').isVisible()).toBe(true);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(await dialog.getByRole('heading', { level: 3 }).innerText()).toBe('Choisissez une date');
    await dialog.getByRole('group').getByRole('button').first().click();
    await dialog.getByRole('button', { name: /^10:00/ }).click();
    await expect.poll(() => dialog.getByText(/Total/).innerText()).toMatch(/^Total ?: 30,00\s€$/);
    await shot(page, '8-phone-fr');
    await page.context().close();
  });

  it('works on /demo, same-origin under the page’s strict CSP', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${api}/demo`);
    await page.getByRole('button', { name: 'Book now' }).click();
    const dates = page.getByRole('dialog').getByRole('group').getByRole('button');
    await expect.poll(() => dates.count()).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    await context.close();
  });

  /** The first date's first departure, one guest, the details given, "Book" pressed. */
  async function bookFirstDeparture(page: Page, [name, email, phone]: [string, string, string]) {
    await page.click('#book');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('group').getByRole('button').first().click();
    await dialog.getByRole('group').getByRole('button').first().click();
    await expect.poll(() => dialog.getByText(/Total: €/).innerText()).toBe('Total: €30.00');
    await dialog.getByRole('button', { name: 'Your details' }).click();
    await dialog.getByLabel('Full name').fill(name);
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Phone').fill(phone);
    await dialog.getByRole('button', { name: 'Book' }).click();
    return dialog;
  }

  it('tells of a network failure and retries with the same Idempotency-Key: one order', async () => {
    const page = await openPage();
    // The first booking reaches the server and is booked, but its answer is lost.
    let lost = false;
    const keys: string[] = [];
    await page.route('**/api/orders', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    const dialog = await bookFirstDeparture(page, [
      'Net Retry',
      'retry@example.com',
      '+1 555 0199',
    ]);
    await expect
      .poll(() => dialog.getByRole('alert').innerText(), { timeout: 15_000 })
      .toMatch(/network failed/);
    await shot(page, '9-network');
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => dialog.locator('[data-short-code]').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const mine = (await ordersOfSeller()).filter((o) => o.customerName === 'Net Retry');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.shortCode).toBe(await dialog.locator('[data-short-code]').innerText());
    await page.context().close();
  });

  it('keeps the Idempotency-Key when the first booking is still in progress: one order', async () => {
    const page = await openPage();
    // The first booking is booked, but the page hears "still in progress" (a retry that
    // overtook it): a new key on the next try would book a second order.
    let answered = false;
    const keys: string[] = [];
    await page.route('**/api/orders', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (answered) return route.continue();
      answered = true;
      const booked = await route.fetch();
      expect(booked.status()).toBe(201);
      await route.fulfill({
        status: 409,
        contentType: 'application/problem+json',
        headers: { 'access-control-allow-origin': '*' },
        body: JSON.stringify({
          code: 'idempotency_in_progress',
          detail: 'A request with this Idempotency-Key is still in progress; retry later.',
        }),
      });
    });
    const dialog = await bookFirstDeparture(page, [
      'Slow Retry',
      'slow@example.com',
      '+1 555 0198',
    ]);
    await expect
      .poll(() => dialog.getByRole('alert').innerText(), { timeout: 15_000 })
      .toMatch(/still in progress/);
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await expect
      .poll(() => dialog.locator('[data-short-code]').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const mine = (await ordersOfSeller()).filter((o) => o.customerName === 'Slow Retry');
    expect(mine).toHaveLength(1);
    await page.context().close();
  });
});
