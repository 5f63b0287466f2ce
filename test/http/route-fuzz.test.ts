/**
 * Every route, every field, every hostile shape: requests generated from the app's own
 * OpenAPI document (so a new route or field is fuzzed without anyone remembering to), sent
 * as a seller, a customer and anonymously, with path ids that exist, ids that do not, and
 * garbage. Each request is a valid-looking one with, usually, one field replaced by a
 * hostile value: NUL, lone surrogates, 2^31, 2^53 and beyond, -0, floats where integers go,
 * numbers as strings, very long strings, deep nesting, arrays and objects for scalars,
 * nulls, unknown fields, malformed percent-encoding and repeated parameters in queries.
 *
 * Some requests name an API version (each of them, or a malformed one) or carry the shop's
 * publishable key, so every version's rewrites and transforms and the widget's guard are
 * fuzzed too. OCTo's routes (/octo) are fuzzed the same way, with a reseller's Bearer credential, the
 * seller's own key, garbage or none, and product, availability and booking ids that exist;
 * their refusals are OCTo's bodies (`{error, errorMessage}`) instead of problem+json.
 *
 * Nothing may answer 5xx, every 4xx is problem+json, and a sample of refused writes is
 * checked to have changed no row. Then every route gets the largest body its schema allows
 * (test/helpers/largest-body.ts): no route's limits may refuse it, and the slowest answers
 * are printed (their budget: docs/security.md, "Request bodies"). FUZZ_REQUESTS (default
 * 10,000 per run; CI runs the suite on both databases) and FUZZ_SEED (default: the time) are
 * read from the environment; the seed is printed with any failure, so a failure replays.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { openShop, type Shop } from '../helpers/booking.js';
import { largestBody } from '../helpers/largest-body.js';
import { createAffiliate, octo } from '../helpers/octo.js';
import { apiVersions } from '../../src/versions/index.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/** A small seeded generator (mulberry32): the same seed, the same requests. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
type Random = ReturnType<typeof random>;
type Schema = Record<string, unknown>;

const HOSTILE: (() => unknown)[] = [
  () => 'a\u0000b',
  () => '\u0000',
  () => 'x\ud800y',
  () => '\udc00',
  () => 2 ** 31,
  () => -(2 ** 31) - 1,
  () => 2 ** 53 + 2,
  () => 1e308,
  () => -0,
  () => 1.5,
  () => '12',
  () => 'NaN',
  () => 'x'.repeat(100_000),
  () => '',
  () => null,
  () => true,
  () => [],
  () => [1, 'a', null],
  () => ({}),
  () => ({ nested: { deeper: [{ deepest: 'a\u0000' }] } }),
  () => JSON.parse(`${'['.repeat(200)}1${']'.repeat(200)}`) as unknown,
  () => '2030-02-30',
  () => '9999-12-31T23:59:59+99:00',
  () => 'ffffffffffffffffffffffff',
  () => '<script>alert(1)</script>',
  () => "' or 1=1 --",
  () => '%ZZ',
];

function generator(doc: Schema, ids: string[], rng: Random) {
  const components = (doc.components as { schemas: Record<string, Schema> }).schemas;
  const resolve = (schema: Schema): Schema =>
    typeof schema.$ref === 'string' ? resolve(components[schema.$ref.split('/').pop()!]!) : schema;

  const text = () =>
    rng.pick(['Kayak', 'Ann Lee', 'zoë', 'a', 'x'.repeat(rng.int(300)), 'ann@example.com']);
  const date = () => `20${30 + rng.int(5)}-0${1 + rng.int(9)}-1${rng.int(9)}`;

  function value(input: Schema, depth = 0): unknown {
    const schema = resolve(input);
    if (depth > 6) return null;
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key] as Schema[] | undefined;
      if (options) return value(rng.pick(options), depth + 1);
    }
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return rng.pick(schema.enum as unknown[]);
    const type = ([] as string[]).concat((schema.type as string | string[] | undefined) ?? []);
    const chosen = type.length > 0 ? rng.pick(type) : rng.pick(['string', 'integer', 'object']);
    switch (chosen) {
      case 'null':
        return null;
      case 'boolean':
        return rng.chance(0.5);
      case 'integer':
      case 'number': {
        const min = (schema.minimum as number | undefined) ?? 0;
        const max = Math.min((schema.maximum as number | undefined) ?? 1000, min + 10_000);
        const n = min + rng.int(max - min + 1);
        return chosen === 'number' && rng.chance(0.3) ? n + 0.25 : n;
      }
      case 'string': {
        if (schema.pattern === '^[0-9a-f]{24}$') return rng.pick(ids);
        if (
          schema.format === 'date' ||
          (typeof schema.pattern === 'string' && schema.pattern.includes('\\d{4}-'))
        )
          return date();
        if (schema.format === 'date-time') return `${date()}T09:00:00Z`;
        if (schema.format === 'email') return `f${rng.int(1e6)}@example.com`;
        if (schema.format === 'uri') return 'https://example.com/p.png';
        if (schema.pattern === '^[A-Z]{3}$') return rng.pick(['USD', 'EUR']);
        return text();
      }
      case 'array': {
        const items = (schema.items as Schema | undefined) ?? {};
        return Array.from({ length: rng.int(3) }, () => value(items, depth + 1));
      }
      default: {
        const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
        const required = new Set((schema.required as string[] | undefined) ?? []);
        const object: Record<string, unknown> = {};
        for (const [name, child] of Object.entries(properties)) {
          if (!required.has(name) && !rng.chance(0.5)) continue;
          // OCTo names products and departures by ids we issue: often real ones.
          const real = name === 'productId' ? ids : name === 'availabilityId' ? octoIds : [];
          object[name] =
            real.length > 0 && rng.chance(0.7) ? rng.pick(real) : value(child, depth + 1);
        }
        if (Object.keys(properties).length === 0 && schema.type === 'object') {
          object[`acme/app/k${rng.int(5)}`] = text();
        }
        return object;
      }
    }
  }

  /** Replaces one value somewhere inside `target` (or `target` itself) with a hostile one. */
  function mutate(target: unknown): unknown {
    const hostile = rng.pick(HOSTILE)();
    if (target === null || typeof target !== 'object' || rng.chance(0.15)) return hostile;
    const keys = Object.keys(target);
    if (keys.length === 0 || rng.chance(0.1)) {
      return {
        ...target,
        [rng.pick(['colour', 'iat', '__proto__x', 'a\u0000'])]: hostile,
      };
    }
    const key = rng.pick(keys);
    const copy = (Array.isArray(target) ? [...target] : { ...target }) as Record<string, unknown>;
    copy[key] = mutate(copy[key]);
    return copy;
  }

  return { value, mutate };
}

const encodeQueryValue = (v: unknown, rng: Random): string => {
  if (rng.chance(0.05)) return rng.pick(['%ZZ', '%E0%A4%A', '%00', '%ED%A0%80']);
  try {
    return encodeURIComponent(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as the bytes it would be
  }
};

let t: TestApp;
let shop: Shop;
let customer: Account;
const ids: string[] = [];
/** Availability ids and a booking uuid of the shop's experience (OCTo). */
const octoIds: string[] = [];
let resellerKey: string;
/** The shop's publishable key: a widget's requests, sent beside or instead of a key. */
let publishableKey: string;

/** Whether a refusal has the body its scope answers with (OCTo's under /octo). */
const refusalShaped = (path: string, response: LightMyRequestResponse): boolean =>
  path.startsWith('/octo/')
    ? String(response.headers['content-type']).startsWith('application/json') &&
      typeof response.json<{ error?: unknown }>().error === 'string'
    : String(response.headers['content-type']).startsWith('application/problem+json');

/** A request as `account` would send it: its key as X-API-KEY, or as Bearer under /octo. */
function send(
  path: string,
  account: Account | string | null,
  options: Parameters<typeof as>[2],
): Promise<LightMyRequestResponse> {
  if (!path.startsWith('/octo/'))
    return as(t.app, typeof account === 'string' ? null : account, options);
  const key = typeof account === 'string' ? account : account?.apiKey;
  return t.app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), ...(key ? { authorization: `Bearer ${key}` } : {}) },
  });
}
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  shop = await openShop(t.app);
  customer = await signUp(t.app);
  const order = await as(t.app, customer, {
    method: 'POST',
    url: '/api/orders',
    payload: {
      items: [
        {
          experience: { id: shop.experienceId },
          arrival: '2030-06-01',
          arrivalTime: 900,
          quantity: 1,
        },
      ],
    },
  });
  const guide = await as(t.app, shop.seller, {
    method: 'POST',
    url: `/api/sellers/${shop.seller.id}/guides`,
    payload: {
      name: 'Gus',
      schedules: [{ type: 'available', repeat: 'weekly', days: [1], timeRanges: [] }],
    },
  });
  ids.push(
    shop.seller.id,
    customer.id,
    shop.experienceId,
    order.json().id as string,
    order.json().items[0].event.id as string,
    guide.json().id as string,
    guide.json().schedules[0].id as string,
    'ffffffffffffffffffffffff',
    '000000000000000000000000',
  );
  resellerKey = (await createAffiliate(t.app, shop.seller)).apiKey;
  publishableKey = (
    await as(t.app, shop.seller, {
      method: 'POST',
      url: `/api/sellers/${shop.seller.id}/publishable-keys`,
      payload: { label: 'fuzz' },
    })
  ).json<{ key: string }>().key;
  const departures = await octo(t.app, resellerKey, 'POST', '/availability', {
    productId: shop.experienceId,
    optionId: 'DEFAULT',
    localDate: '2030-06-02',
  });
  octoIds.push(...departures.json<{ id: string }[]>().map((d) => d.id));
  const booking = await octo(t.app, resellerKey, 'POST', '/bookings', {
    productId: shop.experienceId,
    optionId: 'DEFAULT',
    availabilityId: octoIds[0],
    unitItems: [{ unitId: 'adult' }],
  });
  octoIds.push(booking.json<{ uuid: string }>().uuid);
});
afterAll(async () => t.close());

const ROW_TABLES = ['users', 'experiences', 'events', 'orders', 'guides', 'delegates'] as const;
const rowCounts = async () =>
  Promise.all(
    ROW_TABLES.map(async (table) =>
      Number(
        (
          await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  );

describe(`fuzzing every route from the OpenAPI document (seed ${SEED})`, () => {
  it(
    `answers ${REQUESTS} hostile requests with no 5xx, problem+json 4xx, and refused writes change nothing`,
    { timeout: 600_000 },
    async () => {
      const rng = random(SEED);
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Schema>();
      const gen = generator(doc, ids, rng);
      const operations = Object.entries(doc.paths as Record<string, Record<string, Schema>>)
        .flatMap(([path, item]) =>
          Object.entries(item).map(([method, op]) => ({ path, method, op })),
        )
        .filter(({ path }) => path.startsWith('/api/') || path.startsWith('/octo/'));
      const failures: string[] = [];
      const statuses: Record<number, number> = {};
      let checkedWrites = 0;

      for (let i = 0; i < REQUESTS && failures.length < 5; i++) {
        const { path, method, op } = rng.pick(operations);
        const parameters = (op.parameters as Schema[] | undefined) ?? [];
        const hostile = rng.chance(0.7);
        const target = rng.pick(['path', 'query', 'body']);
        let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const param = parameters.find((p) => p.name === name && p.in === 'path');
          let v = param ? gen.value(param.schema as Schema) : 'x';
          if (name === 'uuid' && rng.chance(0.5)) v = octoIds.at(-1);
          if (name === '*') v = `acme/app/k${rng.int(3)}`;
          if (hostile && target === 'path' && rng.chance(0.5)) v = gen.mutate(v);
          try {
            return encodeURIComponent(String(v));
          } catch {
            return '%ED%A0%80';
          }
        });
        const query: string[] = [];
        for (const p of parameters.filter((p) => p.in === 'query')) {
          if (rng.chance(0.5))
            query.push(`${String(p.name)}=${encodeQueryValue(gen.value(p.schema as Schema), rng)}`);
        }
        if (method === 'get' && rng.chance(0.5)) {
          const field = rng.pick([
            'id',
            'seller',
            'customerName',
            'name',
            'start',
            'items.arrival',
            'guides',
            'user',
          ]);
          const operator = rng.pick([
            '',
            '[in]',
            '[range]',
            '[contains]',
            '[gte]',
            '[exists]',
            '[bogus]',
          ]);
          query.push(
            `${field}${operator}=${encodeQueryValue(hostile ? gen.mutate('x') : rng.pick(ids), rng)}`,
          );
          if (rng.chance(0.1)) query.push(query[query.length - 1]!);
        }
        if (hostile && target === 'query')
          query.push(`limit=${encodeQueryValue(gen.mutate(20), rng)}`);
        if (query.length > 0) url += `?${query.join('&')}`;

        const bodySchema = (
          op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined
        )?.content?.['application/json']?.schema;
        let body: unknown = bodySchema ? gen.value(bodySchema) : undefined;
        if (hostile && (target === 'body' || !bodySchema) && method !== 'get')
          body = gen.mutate(body);
        const account = path.startsWith('/octo/')
          ? rng.pick([resellerKey, resellerKey, shop.seller, customer, 'not-a-key', null])
          : rng.pick([shop.seller, shop.seller, customer, customer, null]);
        const payload =
          body === undefined
            ? undefined
            : (() => {
                try {
                  return JSON.stringify(body);
                } catch {
                  return '{"deep":' + '['.repeat(100) + ']'.repeat(100) + '}';
                }
              })();
        const write = method !== 'get';
        const check = write && hostile && rng.chance(0.05);
        const before = check ? await rowCounts() : undefined;
        // Every version's rewrites and transforms, a malformed version, and the widget's key.
        const headers: Record<string, string> = {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(rng.chance(0.3)
            ? {
                'x-api-version': rng.pick([
                  ...apiVersions.map((v) => v.date),
                  '0099-01-01',
                  '2018-02-30',
                  'v',
                ]),
              }
            : {}),
          ...(rng.chance(0.1) ? { 'x-publishable-key': publishableKey } : {}),
        };
        const response: LightMyRequestResponse = await send(path, account, {
          method: method.toUpperCase(),
          url,
          headers,
          ...(payload === undefined ? {} : { payload }),
        });
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        // A rotated key is the caller's new key: keep fuzzing as that caller.
        if (
          account &&
          typeof account !== 'string' &&
          method === 'post' &&
          /\/apiKey(\?|$)/.test(url) &&
          response.statusCode === 200
        ) {
          account.apiKey = response.json<{ apiKey: string }>().apiKey;
        }
        const where = `${method.toUpperCase()} ${url.slice(0, 200)} ${JSON.stringify(headers)} ${String(payload).slice(0, 300)}`;
        if (response.statusCode >= 500) {
          failures.push(`${response.statusCode} for ${where}: ${response.body.slice(0, 300)}`);
        } else if (response.statusCode >= 400 && !refusalShaped(path, response)) {
          failures.push(`${response.statusCode} not its scope's error body for ${where}`);
        }
        if (before && response.statusCode >= 400) {
          checkedWrites++;
          const after = await rowCounts();
          if (after.join() !== before.join())
            failures.push(`a refused write changed rows: ${where}`);
        }
      }
      // eslint-disable-next-line no-console
      console.log(
        `route fuzz (seed ${SEED}): ${REQUESTS} requests over ${operations.length} operations; ` +
          `statuses ${JSON.stringify(statuses)}; ${checkedWrites} refused writes checked unchanged`,
      );
      expect(failures, `seed ${SEED} (FUZZ_SEED=${SEED} replays it)`).toEqual([]);
    },
  );

  it(
    'answers the largest body each schema allows, as a seller and anonymously, and records the slowest',
    { timeout: 600_000 },
    async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Schema>();
      const components = (doc.components as { schemas: Record<string, Schema> }).schemas;
      const failures: string[] = [];
      const answers: { where: string; ms: number; status: number }[] = [];
      for (const [path, item] of Object.entries(
        doc.paths as Record<string, Record<string, Schema>>,
      )) {
        for (const [method, op] of Object.entries(item)) {
          const schema = (
            op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined
          )?.content?.['application/json']?.schema;
          if (!schema) continue;
          const url = path.replace(/\{[^}]+\}/g, shop.seller.id);
          const payload = JSON.stringify(largestBody(schema, { components, id: shop.seller.id }));
          const callers = path.startsWith('/octo/') ? [resellerKey, null] : [shop.seller, null];
          for (const account of callers) {
            const started = performance.now();
            const response = await send(path, account, {
              method: method.toUpperCase(),
              url,
              payload,
              headers: { 'content-type': 'application/json' },
            });
            const ms = performance.now() - started;
            const who = typeof account === 'string' ? 'reseller' : account ? 'seller' : 'anonymous';
            const where = `${method.toUpperCase()} ${path} ${who} (${payload.length} bytes)`;
            answers.push({ where, ms, status: response.statusCode });
            if (response.statusCode >= 500) failures.push(`${response.statusCode} for ${where}`);
            else if (response.statusCode >= 400 && !refusalShaped(path, response))
              failures.push(`${response.statusCode} not its scope's error body for ${where}`);
            // Within the service's cap, the route's own limits must admit every valid body.
            if (payload.length <= t.config.bodyLimit && response.statusCode === 413)
              failures.push(
                `413 for ${where}: the route's limit is below its schema's largest body`,
              );
            if (/has more than \d+ (values|fields)/.test(response.body))
              failures.push(`refused by the value budget: ${where}`);
          }
        }
      }
      // Wall time is printed, never asserted (DESIGN: speed is measured by benchmarks); the
      // budget it is read against is in docs/security.md, "Request bodies".
      const slowest = [...answers].sort((a, b) => b.ms - a.ms).slice(0, 5);
      // eslint-disable-next-line no-console
      console.log(
        `largest bodies: ${answers.length} requests; slowest answers:\n` +
          slowest.map((a) => `  ${a.ms.toFixed(1)} ms  ${a.status}  ${a.where}`).join('\n'),
      );
      expect(failures).toEqual([]);
    },
  );
});
