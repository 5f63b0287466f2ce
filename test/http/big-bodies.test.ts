/**
 * Bodies of a megabyte from nobody (issue 26, point 1): a million small values, eighty
 * thousand keys, deep nesting and huge strings, posted anonymously to routes with and
 * without a body schema. Each is a 4xx problem+json refused by its cheap check: by size
 * (413) before it is read, or by a scan of its text before JSON.parse ever sees it. Work is
 * counted, never timed: JSON.parse is watched for the big text. (That each route's limits
 * admit the largest body its schema allows is the route fuzzer's to check.)
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  expectProblem,
  signUp,
  type Account,
  type TestApp,
} from '../helpers/app.js';

let t: TestApp;
let seller: Account;
beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

const MIB = 1_048_576;
const SIZE = MIB - 64;
const fill = (unit: string) =>
  `[${Array(Math.floor((SIZE - 2) / (unit.length + 1)))
    .fill(unit)
    .join(',')}]`;
const keys = () => {
  const parts: string[] = [];
  for (let i = 0, length = 2; length + 12 < SIZE; i++, length += 12)
    parts.push(`"k${i.toString(36).padStart(6, '0')}":1`);
  return `{${parts.join(',')}}`;
};
const BODIES: Record<string, string> = {
  'a million ones': fill('1'),
  'half a million empty objects': fill('{}'),
  'eighty thousand keys': keys(),
  'arrays nested half a million deep': `${'['.repeat(SIZE / 2)}${']'.repeat(SIZE / 2)}`,
};
const HUGE_STRING = `"${'x'.repeat(SIZE - 2)}"`;
const ID = 'ffffffffffffffffffffffff';

/** Posts `payload` anonymously; returns the answer and whether JSON.parse saw a big text. */
async function post(url: string, payload: string, headers: Record<string, string> = {}) {
  const parse = vi.spyOn(JSON, 'parse');
  const response = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', ...headers },
  });
  const parsedBig = parse.mock.calls.some(([text]) => String(text).length > 100_000);
  parse.mockRestore();
  return { response, parsedBig };
}

describe('a body of a megabyte from nobody', () => {
  // Routes whose limit is below a megabyte: refused by size, unread.
  it.each([
    ['/api/users', 65_536],
    [`/api/orders/${ID}/cancel`, 16_384],
    [`/api/users/${ID}/meta`, 65_536],
    [`/api/events/${ID}/guides`, 65_536],
  ])('is refused by size (413) on POST %s before it is read', async (url, limit) => {
    for (const [name, payload] of Object.entries({ ...BODIES, 'a huge string': HUGE_STRING })) {
      const { response, parsedBig } = await post(url, payload);
      const problem = expectProblem(response, 413, 'payload_too_large');
      expect(problem.detail, name).toBe(
        `The body is larger than this route accepts (${limit} bytes).`,
      );
      expect(parsedBig, name).toBe(false);
    }
  });

  // Routes whose schema allows a body of a megabyte, or no route at all.
  it.each(['/api/experiences', `/api/sellers/${ID}/guides`, '/api/orders', '/api/nope'])(
    'is refused on POST %s by a scan of its text, never parsed',
    async (url) => {
      for (const version of ['2018-01-01', '']) {
        const headers: Record<string, string> = version ? { 'x-api-version': version } : {};
        for (const [name, payload] of Object.entries(BODIES)) {
          const { response, parsedBig } = await post(url, payload, headers);
          expect([400, 413], `${name}: ${response.body}`).toContain(response.statusCode);
          const code = response.statusCode === 413 ? 'payload_too_large' : 'validation_failed';
          const problem = expectProblem(response, response.statusCode, code);
          if (code === 'validation_failed') {
            expect(problem.errors?.[0], name).toMatchObject({ in: 'body', name: 'body' });
            expect(problem.detail, name).toMatch(/has more than \d+ (values|fields)|nested deeper/);
          }
          expect(parsedBig, `${name} ${version}`).toBe(false);
        }
      }
    },
  );

  it('of one huge string where an object goes is refused before any walk, as validation would', async () => {
    const { response } = await post('/api/experiences', HUGE_STRING);
    expect(expectProblem(response, 400, 'validation_failed').errors).toEqual([
      { in: 'body', name: 'body', detail: 'must be object' },
    ]);
  });

  it('with a huge string inside is refused by the field that holds it', async () => {
    const payload = JSON.stringify({
      name: 'x'.repeat(SIZE - 200),
      price: 25,
      priceType: 'person',
      currency: 'EUR',
      duration: 90,
    });
    const { response } = await post('/api/experiences', payload, { 'x-api-key': seller.apiKey });
    expect(expectProblem(response, 400, 'validation_failed').errors).toEqual([
      { in: 'body', name: 'name', detail: expect.stringMatching(/must NOT have more than/) },
    ]);
  });
});
