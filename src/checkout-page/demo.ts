/**
 * The demo (`/demo`, docs/widget.md): the checkout widget on a sample seller, so that a
 * newcomer sees it work after `npm start`. The sample is made through the service's own
 * API on the first visit (a seller, a kayak tour with guest types and daily departures, a
 * publishable key) and remembered in DATA_DIR/demo.json; later visits reuse it while its
 * key still works. On by default only on the embedded database, in a sandbox or listening on
 * loopback (DEMO_PAGE; config.ts): reachable from elsewhere in production it would be a
 * seller nobody set up, open to anyone. The snippet to paste wraps
 * inside the page (its button line is longer than any screen is wide).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

export interface DemoShop {
  sellerId: string;
  experienceId: string;
  key: string;
}

async function inject<T>(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  payload: object | undefined,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  if (response.statusCode >= 300) throw new Error(`demo: ${method} ${url}: ${response.body}`);
  return response.json<T>();
}

async function makeShop(app: FastifyInstance): Promise<DemoShop> {
  const seller = await inject<{ id: string; apiKey: string }>(app, 'POST', '/api/users', {
    name: 'Harbour Tours (demo)',
    email: `demo-${randomBytes(6).toString('hex')}@example.com`,
    password: randomBytes(24).toString('base64url'),
    roles: ['ROLE_SELLER'],
  });
  const asSeller = { 'x-api-key': seller.apiKey };
  const experience = await inject<{ id: string }>(
    app,
    'POST',
    '/api/experiences',
    {
      name: 'Sunrise kayak tour',
      desc: 'Ninety minutes along the harbour at first light.',
      price: 45,
      priceType: 'person',
      currency: 'EUR',
      duration: 90,
      timezone: 'Europe/Paris',
      group: { outingMax: 8 },
      demographics: [
        { label: 'Adult', code: 'adult' },
        { label: 'Child (6-12)', code: 'child', price: 25 },
      ],
      schedules: [
        { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [800, 1700] },
      ],
    },
    asSeller,
  );
  const key = await inject<{ key: string }>(
    app,
    'POST',
    `/api/sellers/${seller.id}/publishable-keys`,
    { label: 'demo page' },
    asSeller,
  );
  return { sellerId: seller.id, experienceId: experience.id, key: key.key };
}

/** The remembered sample, if any: none yet, or an unreadable file, is made again. */
function savedShop(file: string): DemoShop | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as DemoShop;
  } catch {
    return undefined;
  }
}

/** Answers that say the saved sample is gone: its key refused, or its experience missing. */
const GONE = new Set([401, 404]);

/**
 * The sample shop: the remembered one while its key works, else a new one. Only an answer
 * that says the sample is gone makes another: a 429 or a 5xx says nothing about it, and
 * making a seller on each would fill the database with them. Then the saved one is shown
 * and checked again on the next visit.
 */
export function demoShop(app: FastifyInstance, dataDir: string): () => Promise<DemoShop> {
  const file = path.join(dataDir, 'demo.json');
  let pending: Promise<DemoShop> | undefined;
  const load = async (): Promise<{ shop: DemoShop; settled: boolean }> => {
    const saved = savedShop(file);
    if (saved) {
      const check = await app.inject({
        method: 'GET',
        url: `/api/experiences/${saved.experienceId}`,
        headers: { 'x-publishable-key': saved.key },
      });
      if (check.statusCode === 200) return { shop: saved, settled: true };
      if (!GONE.has(check.statusCode)) return { shop: saved, settled: false };
    }
    const shop = await makeShop(app);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(shop));
    return { shop, settled: true };
  };
  return () => {
    pending ??= load().then(
      ({ shop, settled }) => {
        if (!settled) pending = undefined;
        return shop;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function demoPage(shop: DemoShop): string {
  const button = `<button data-seller="${escapeHtml(shop.sellerId)}" data-experience="${escapeHtml(shop.experienceId)}" data-key="${escapeHtml(shop.key)}">Book now</button>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout widget demo</title>
<script src="/checkout.js" async></script>
<style>
body{font:17px/1.5 Georgia,serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#222}
button{font:600 1rem system-ui,sans-serif;background:#0b57d0;color:#fff;border:0;border-radius:8px;padding:.8rem 1.4rem;cursor:pointer}
pre{background:#f4f4f4;padding:1rem;font-size:.8rem;white-space:pre-wrap;overflow-wrap:anywhere}
</style></head><body>
<h1>Harbour Tours</h1>
<p><em>A demo page with a sample seller (made on the first visit). Book a seat: the order is real, in this
service's database.</em></p>
<h2>Sunrise kayak tour</h2>
<p>Ninety minutes along the harbour at first light. €45 an adult, €25 a child.</p>
<p>${button}</p>
<h2>On your own page</h2>
<p>These two lines (docs/widget.md):</p>
<pre>${escapeHtml('<script src="https://HOST/checkout.js" async></script>\n')}${escapeHtml(button)}</pre>
</body></html>`;
}
