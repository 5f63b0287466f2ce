/// <reference lib="dom" />
/**
 * The checkout widget's cost to a page (issue 17): the script's size (minified, gzipped),
 * and its first render on the demo page in Debian's Chromium: from the click on "Book now"
 * to the dates on screen (the experience and its availability fetched and drawn), median
 * and worst of `--runs` fresh page loads. `--screenshot FILE` also saves the open dialog
 * (the README's picture).
 *
 *   npx tsx bench/widget.ts [--runs N] [--screenshot docs/images/widget-demo.png]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { loadWidget } from '../src/checkout-page/widget-bundle.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    screenshot: { type: 'string' },
  },
});

const script = await loadWidget();
console.log(
  `checkout.js: ${(script.length / 1000).toFixed(1)} kB minified, ${(gzipSync(script).length / 1000).toFixed(1)} kB gzipped (budget 16 / 6 kB)`,
);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'booking-widget-bench-'));
const database = await openDatabase({ kind: 'pglite' });
await migrateToLatest(database.db);
const app = await buildApp(
  loadConfig({
    DATA_DIR: dataDir,
    BOOKING_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    RATE_LIMIT_MAX: '0',
    SIGNUPS_PER_ADDRESS: '0',
    WEBHOOK_DISPATCH: 'false',
    LOG_LEVEL: 'error',
  }),
  { database, logStream: new Writable({ write: (_c, _e, done) => done() }) },
);
const origin = (await app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

const timings: number[] = [];
try {
  for (let run = 0; run < Number(values.runs); run++) {
    const context = await browser.newContext({ viewport: { width: 1024, height: 720 } });
    const page = await context.newPage();
    await page.goto(`${origin}/demo`);
    await page.waitForFunction(
      () => document.documentElement.getAttribute('data-booking-checkout') === 'ready',
    );
    const dates = page.getByRole('dialog').getByRole('group').getByRole('button').first();
    const started = performance.now();
    await page.click('button[data-key]');
    await dates.waitFor({ state: 'visible' });
    timings.push(performance.now() - started);
    if (run === 0 && values.screenshot) {
      fs.mkdirSync(path.dirname(values.screenshot), { recursive: true });
      await page.screenshot({ path: values.screenshot });
      console.log(`saved ${values.screenshot}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
timings.sort((a, b) => a - b);
const median = timings[Math.floor(timings.length / 2)]!;
console.log(
  `first render on /demo (click to dates on screen), ${timings.length} runs: median ${median.toFixed(0)} ms, best ${timings[0]!.toFixed(0)} ms, worst ${timings.at(-1)!.toFixed(0)} ms`,
);
