/**
 * What the worst bodies cost the event loop (issue 26, point 1): every route of the OpenAPI
 * document gets the largest body its schema allows (as its seller) and hostile shapes just
 * under its byte limit (anonymously, on the latest version and on a Xola-era one): a
 * million-ish small values, empty objects, fresh key names, deep nesting, one huge string,
 * an escaped one, and `constructor` keys (which make the prototype-poisoning check walk
 * everything it parsed). For each it prints the answer and the longest the event loop was
 * held while the request ran (perf_hooks.monitorEventLoopDelay, 1 ms resolution) beside its
 * wall time. Embedded database in a temporary directory; quoted in docs/security.md.
 *
 *   npx tsx bench/worst-bodies.ts [--reps 5] [--routes experiences,orders]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { largestBody } from '../test/helpers/largest-body.js';

const { values: args } = parseArgs({
  options: { reps: { type: 'string', default: '5' }, routes: { type: 'string', default: '' } },
});
const REPS = Number(args.reps);
const ROUTE_FILTER = args.routes ? args.routes.split(',') : [];
const OLD_VERSION = '2018-01-01';

type Schema = Record<string, unknown>;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'worst-bodies-'));
const config = loadConfig({
  DATA_DIR: dir,
  BOOKING_SECRET: 'x'.repeat(40),
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '0',
  SIGNUPS_PER_ADDRESS: '0',
  AUTH_FAILURES_PER_ADDRESS: '0',
});
const app = await buildApp(config);
// The byte limit of the route the last request went to (per route after issue 26, one for
// all before): read off the request, so the script measures either.
let lastLimit = config.bodyLimit;
let lastBudget: { values: number; keys: number } | undefined;
app.addHook('onRequest', async (request) => {
  lastLimit = request.routeOptions.bodyLimit ?? config.bodyLimit;
  lastBudget = (request.routeOptions.config as { bodyBudget?: typeof lastBudget }).bodyBudget;
});
await app.ready();

const seller = (
  await app.inject({
    method: 'POST',
    url: '/api/users',
    payload: {
      name: 'Bench',
      email: 'bench@example.com',
      password: 'long enough pass',
      roles: ['ROLE_SELLER'],
    },
  })
).json<{ id: string; apiKey: string }>();

/**
 * The costliest bodies that still pass the scan of a route's budget: as many fresh key names
 * as it allows, each in its own object (JSON.parse pays most for those), and as many empty
 * objects as it allows. Only with per-route budgets (after issue 26).
 */
function atBudget(budget: { values: number; keys: number }, size: number): Record<string, string> {
  const salt = Math.random().toString(36).slice(2, 6);
  const keys = Math.min(budget.keys, Math.floor(budget.values / 2)) - 8;
  const objects = Array.from({ length: keys }, (_, i) => `{"${salt}${i.toString(36)}":1}`);
  const empty = Array(Math.floor(budget.values / 2) - 8).fill('{}');
  const bodies = {
    'fresh keys at budget': `[${objects.join(',')}]`,
    'empty objects at budget': `[${empty.join(',')}]`,
  };
  return Object.fromEntries(Object.entries(bodies).filter(([, body]) => body.length < size));
}

/** Hostile bodies of about `size` bytes (never more). */
function hostile(size: number): Record<string, string> {
  const repeat = (open: string, unit: string, close: string) =>
    open +
    Array(Math.max(1, Math.floor((size - open.length - close.length) / (unit.length + 1))))
      .fill(unit)
      .join(',') +
    close;
  const salt = Math.random().toString(36).slice(2, 6);
  let fresh = '{';
  for (let i = 0; fresh.length < size - 24; i++)
    fresh += `${i ? ',' : ''}"${salt}${i.toString(36)}":1`;
  return {
    ones: repeat('[', '1', ']'),
    'empty objects': repeat('[', '{}', ']'),
    'fresh keys': `${fresh}}`,
    deep: '['.repeat(Math.floor(size / 2)) + ']'.repeat(Math.floor(size / 2)),
    'plain string': `"${'x'.repeat(size - 2)}"`,
    'escaped string': `"${'\\u0041'.repeat(Math.floor((size - 2) / 6))}"`,
    'constructor keys': repeat('[{"constructor":1},', '{}', ']'),
  };
}

const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();

interface Row {
  route: string;
  body: string;
  bytes: number;
  answer: string;
  wallMs: number;
  holdMs: number;
}
const rows: Row[] = [];

async function measure(
  route: string,
  body: string,
  method: string,
  url: string,
  payload: string,
  headers: Record<string, string>,
) {
  const walls: number[] = [];
  const holds: number[] = [];
  let answer = '';
  // Unmeasured first: a route's validator compiles on its first request.
  await app.inject({
    method,
    url,
    payload,
    headers: { 'content-type': 'application/json', ...headers },
  });
  for (let i = 0; i < REPS; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    loop.reset();
    const started = performance.now();
    const response = await app.inject({
      method,
      url,
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });
    walls.push(performance.now() - started);
    // Let the monitor's timer fire once after the request, so a block at its end counts.
    await new Promise((resolve) => setTimeout(resolve, 2));
    holds.push(Math.max(0, loop.max / 1e6 - 1));
    const code = response.headers['content-type']?.toString().includes('problem')
      ? ` ${response.json<{ code: string }>().code}`
      : '';
    answer = `${response.statusCode}${code}`;
  }
  // Medians: the machine is shared, and a descheduled process looks like a held loop.
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  rows.push({
    route,
    body,
    bytes: payload.length,
    answer,
    wallMs: median(walls),
    holdMs: median(holds),
  });
}

const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<Schema>();
const components = (doc.components as { schemas: Record<string, Schema> }).schemas;
for (const [pathName, item] of Object.entries(
  doc.paths as Record<string, Record<string, Schema>>,
)) {
  for (const [method, op] of Object.entries(item)) {
    if (method === 'get' || !pathName.startsWith('/api/')) continue;
    if (ROUTE_FILTER.length > 0 && !ROUTE_FILTER.some((part) => pathName.includes(part))) continue;
    const url = pathName.replace(/\{([^}]+)\}/g, (_, name: string) =>
      name === '*'
        ? 'acme/app/k1'
        : pathName.startsWith('/api/users') || pathName.startsWith('/api/sellers')
          ? seller.id
          : 'ffffffffffffffffffffffff',
    );
    const route = `${method.toUpperCase()} ${pathName}`;
    const schema = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
      ?.content?.['application/json']?.schema;
    // A probe first: it tells the route's byte limit.
    await app.inject({
      method: method.toUpperCase(),
      url,
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const limit = lastLimit;
    const budget = lastBudget;
    if (schema) {
      const largest = JSON.stringify(largestBody(schema, { components, id: seller.id }));
      await measure(route, 'largest valid-shaped', method.toUpperCase(), url, largest, {
        'x-api-key': seller.apiKey,
      });
    }
    for (const version of ['latest', OLD_VERSION]) {
      const headers: Record<string, string> =
        version === 'latest' ? {} : { 'x-api-version': version };
      const size = Math.min(limit, config.bodyLimit) - 16;
      const bodies = { ...hostile(size), ...(budget ? atBudget(budget, size) : {}) };
      for (const [name, payload] of Object.entries(bodies)) {
        await measure(
          route,
          `${name}${version === 'latest' ? '' : ` (v${version})`}`,
          method.toUpperCase(),
          url,
          payload,
          headers,
        );
      }
    }
  }
}

const pad = (text: string | number, width: number) => String(text).padEnd(width);
console.log(
  `${pad('route', 56)}${pad('body', 34)}${pad('bytes', 9)}${pad('answer', 28)}${pad('wall ms', 9)}loop held ms`,
);
for (const row of rows) {
  console.log(
    `${pad(row.route, 56)}${pad(row.body, 34)}${pad(row.bytes, 9)}${pad(row.answer, 28)}${pad(row.wallMs.toFixed(1), 9)}${row.holdMs.toFixed(1)}`,
  );
}
const worst = [...rows].sort((a, b) => b.holdMs - a.holdMs).slice(0, 5);
console.log('\nlongest holds:');
for (const row of worst)
  console.log(
    `  ${row.holdMs.toFixed(1)} ms  ${row.route}  ${row.body} (${row.answer}, wall ${row.wallMs.toFixed(1)} ms)`,
  );
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
