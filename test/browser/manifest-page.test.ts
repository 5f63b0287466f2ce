/// <reference lib="dom" />
/**
 * The manifest's printable page (`GET /api/events/{id}/manifest?format=html`) in a real
 * browser (Debian's Chromium, driven by playwright-core; no browser is downloaded): the
 * departure, its guide and its guests render as text (a customer named `<script>` is a
 * name, never code: no script runs, no dialog opens), the style block is allowed by its CSP
 * hash and nothing the policy refuses is attempted, and it prints to PDF. Screenshots go to
 * test-results/manifest/; docs/images/manifest-page.png is one of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.resolve('test-results/manifest');

let t: TestApp;
let api: string;
let browser: Browser;
let seller: Account;
let eventId: string;

const post = async (url: string, payload: object) => {
  const response = await as(t.app, seller, { method: 'POST', url, payload });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.body}`);
  return response.json();
};

beforeAll(async () => {
  t = await createTestApp();
  api = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'], name: 'Harbour Tours' });
  const experience = await post('/api/experiences', {
    name: 'Harbour Kayak',
    price: 30,
    priceType: 'person',
    currency: 'EUR',
    duration: 90,
    timezone: 'Europe/Paris',
    group: { outingMax: 12 },
    demographics: [
      { label: 'Adult', code: 'adult' },
      { label: 'Child', code: 'child', price: 15 },
    ],
    schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [900] }],
  });
  const [adult, child] = experience.demographics.map((d: { id: string }) => d.id);
  const at = { experience: { id: experience.id }, arrival: '2030-07-14', arrivalTime: 900 };
  const bookings: [string, string[], object][] = [
    [
      'Ann Archer',
      ['Vegetarian lunch'],
      {
        ...at,
        demographics: [
          { demographic: { id: adult }, quantity: 2 },
          { demographic: { id: child }, quantity: 1 },
        ],
      },
    ],
    ['<script>alert("x")</script>', ['@everyone <b>bold</b>'], { ...at, quantity: 1 }],
    ["=cmd|' /C calc'!A0", [], { ...at, quantity: 2 }],
    ['Zoë Zimmermann', ['Arrives by train, may be 5 min late'], { ...at, quantity: 1 }],
  ];
  const orders = [];
  for (const [customerName, notes, entry] of bookings)
    orders.push(
      await post('/api/orders', {
        customerName,
        notes: notes.map((text) => ({ text })),
        items: [entry],
      }),
    );
  eventId = orders[0].items[0].event.id;
  await post('/api/checkins', { code: orders[0].shortCode, force: true });
  await post(`/api/orders/${orders[2].id}/modify`, { updates: { guestStatus: 'no_show' } });
  const guide = await post(`/api/sellers/${seller.id}/guides`, {
    name: 'Gus Guide',
    email: 'gus@example.com',
    phone: '+33 6 12 34 56 78',
    schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6] }],
  });
  await post(`/api/events/${eventId}/guides`, { guide: { id: guide.id } });
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the manifest page in Chromium', () => {
  it('renders the departure, its guide and its guests as text, under its CSP, and prints', async () => {
    const context = await browser.newContext({
      viewport: { width: 1024, height: 720 },
      extraHTTPHeaders: { 'x-api-key': seller.apiKey },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    const response = await page.goto(`${api}/api/events/${eventId}/manifest?format=html`);
    expect(response?.status()).toBe(200);

    expect(await page.locator('h1').textContent()).toBe('Harbour Kayak');
    expect(await page.locator('p.when').textContent()).toBe(
      'Sunday 2030-07-14, 09:00 to 10:30 (Europe/Paris)',
    );
    expect(await page.locator('ul.guides li').allTextContents()).toEqual([
      'Gus Guide (+33 6 12 34 56 78)',
    ]);
    expect(await page.locator('ul.counts li').allTextContents()).toEqual([
      'Booked 7',
      'Arrived 3',
      'No show 2',
      'Expected 2',
    ]);
    const names = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(names).toEqual([
      '<script>alert("x")</script>',
      "=cmd|' /C calc'!A0",
      "=cmd|' /C calc'!A0",
      'Ann Archer',
      'Ann Archer',
      'Ann Archer',
      'Zoë Zimmermann',
    ]);
    expect(await page.locator('tbody b, tbody script, script').count()).toBe(0);
    expect(await page.locator('tbody tr.arrived').count()).toBe(3);
    // The style block applied: allowed by its hash (a refused style would leave th unstyled).
    expect(
      await page
        .locator('th')
        .first()
        .evaluate((th) => getComputedStyle(th).backgroundColor),
    ).toBe('rgb(238, 238, 238)');
    expect(problems).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'manifest-page.png'), fullPage: true });
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    await context.close();
  });
});
