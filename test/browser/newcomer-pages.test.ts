/// <reference lib="dom" />
/**
 * What a newcomer sees in a browser (issue 31), in Debian's Chromium: the demo page's
 * snippet fits the page (it was cut off at the right edge), on a phone and on a desktop;
 * and the widget's last words are true: "a confirmation is on its way" only from a service
 * that sends email, "not sent yet" from one that keeps it in its outbox (no SMTP_URL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

/** A listening app with the demo page on, and `env` on top. */
async function demoServer(env: Record<string, string> = {}): Promise<{ t: TestApp; base: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-newcomer-'));
  const t = await createTestApp({ DATA_DIR: dataDir, DEMO_PAGE: 'true', ...env });
  const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  cleanups.push(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { t, base };
}

async function openDemo(base: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${base}/demo`);
  await page.waitForFunction(
    () => document.documentElement.getAttribute('data-booking-checkout') === 'ready',
  );
  return page;
}

/** Books one adult on the first departure offered, by clicks; the dialog's last words. */
async function bookAndRead(page: Page): Promise<{ text: string; mail: string | null }> {
  await page.getByRole('button', { name: 'Book now' }).first().click();
  const dialog = page.getByRole('dialog');
  const choices = dialog.locator('button.choice:not([disabled])');
  await choices.first().click(); // the first date with departures
  await choices.first().click(); // its first departure
  await dialog.getByRole('button', { name: 'Your details' }).click();
  await dialog.getByLabel('Full name').fill('Nia Newcomer');
  await dialog.getByLabel('Email').fill('nia@example.com');
  await dialog.getByLabel('Phone').fill('+33 1 23 45 67 89');
  await dialog.getByRole('button', { name: 'Book', exact: true }).click();
  const said = dialog.locator('[data-confirmation]');
  await expect.poll(() => said.isVisible(), { timeout: 20_000 }).toBe(true);
  return { text: await said.innerText(), mail: await said.getAttribute('data-confirmation') };
}

describe('the demo page and the widget, as a newcomer sees them', () => {
  it('shows the whole snippet to paste, on a phone and on a desktop', async () => {
    const { base } = await demoServer();
    for (const width of [360, 1280]) {
      const page = await openDemo(base, width);
      const snippet = page.locator('pre');
      expect(await snippet.innerText()).toContain('data-key="pk_');
      const overflow = await snippet.evaluate((pre) => pre.scrollWidth - pre.clientWidth);
      expect(overflow, `${width} px wide`).toBeLessThanOrEqual(0);
      const pageOverflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(pageOverflow, `${width} px wide`).toBeLessThanOrEqual(0);
      await page.context().close();
    }
  });

  it('promises no email from a service without a mail transport', async () => {
    const { base } = await demoServer();
    const page = await openDemo(base, 1024);
    const said = await bookAndRead(page);
    expect(said.mail).toBe('queued');
    expect(said.text).toBe(
      'Keep this code: the confirmation email to nia@example.com has not been sent yet.',
    );
    await page.context().close();
  });

  it('says a confirmation is on its way from a service that sends email', async () => {
    // A relay that refuses connections: what matters is that one is configured.
    const { base } = await demoServer({ SMTP_URL: 'smtp://127.0.0.1:9' });
    const page = await openDemo(base, 1024);
    const said = await bookAndRead(page);
    expect(said.mail).toBe('sent');
    expect(said.text).toBe('A confirmation is on its way to nia@example.com.');
    await page.context().close();
  });
});
