/**
 * @booking/client against a real server: the service's app listening on a port of its
 * own (over HTTP, no injection, no mocks), driven only through the typed client: create an
 * account, publish an experience, list with filters, book with an Idempotency-Key (and
 * retry it), handle a problem by its code, follow paging.next, pin an API version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import {
  BookingApiError,
  GENERATED_FOR_VERSION,
  createBookingClient,
  idempotencyKey,
  paginate,
  unwrap,
  type BookingClient,
  type Schemas,
} from '../src/index.js';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

let sequence = 0;
/** A new account through the client (sign-up is anonymous), and a client acting as it. */
async function account(roles: ('ROLE_SELLER' | 'ROLE_DEVELOPER')[] = []) {
  const anonymous = createBookingClient({ baseUrl });
  const user = await unwrap(
    anonymous.POST('/api/users', {
      body: {
        name: `Client User ${++sequence}`,
        email: `client.${process.pid}.${sequence}@example.com`,
        password: 'correct horse battery',
        roles,
      },
    }),
  );
  const client = createBookingClient({
    baseUrl,
    apiKey: user.apiKey,
    apiVersion: GENERATED_FOR_VERSION,
  });
  return { user, client };
}

/** The error a call ends with (it must end with one). */
const failure = (call: Promise<{ data?: unknown; error?: unknown; response: Response }>) =>
  unwrap(call).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as BookingApiError,
  );

async function publish(
  client: BookingClient,
  name = 'Client Kayak',
): Promise<Schemas['Experience']> {
  return unwrap(
    client.POST('/api/experiences', {
      body: {
        name,
        price: 40,
        priceType: 'person',
        currency: 'EUR',
        duration: 60,
        timezone: 'Europe/Paris',
        group: { outingMax: 3 },
        schedules: [
          { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times: [1000] },
        ],
      },
    }),
  );
}

describe('@booking/client against a real server', () => {
  it('creates an account, publishes an experience and finds it with filters', async () => {
    const { user, client } = await account(['ROLE_SELLER']);
    expect(user.apiKey).toMatch(/\S{20,}/);
    const experience = await publish(client);
    expect(experience).toMatchObject({ object: 'experience', seller: { id: user.id } });
    const anonymous = createBookingClient({ baseUrl });
    const page = await unwrap(
      anonymous.GET('/api/experiences', {
        params: {
          query: { seller: user.id, 'name[contains]': 'kayak', expand: 'seller' } as never,
        },
      }),
    );
    expect(page.data.map((e) => e.id)).toEqual([experience.id]);
    const availability = await unwrap(
      anonymous.GET('/api/experiences/{id}/availability', {
        params: { path: { id: experience.id }, query: { start: '2031-09-01', end: '2031-09-01' } },
      }),
    );
    expect(availability).toEqual({ '2031-09-01': { '1000': 3 } });
  });

  it('books with an Idempotency-Key: a retry answers the same order, never a second one', async () => {
    const seller = await account(['ROLE_SELLER']);
    const experience = await publish(seller.client);
    const { client } = await account();
    const key = idempotencyKey();
    const body = {
      items: [
        {
          experience: { id: experience.id },
          arrival: '2031-09-02',
          arrivalTime: 1000,
          quantity: 2,
        },
      ],
    };
    const first = await unwrap(
      client.POST('/api/orders', { body, headers: { 'Idempotency-Key': key } }),
    );
    const retry = await unwrap(
      client.POST('/api/orders', { body, headers: { 'Idempotency-Key': key } }),
    );
    expect(retry.id).toBe(first.id);
    expect(first).toMatchObject({ status: 'confirmed', amount: 80, currency: 'EUR' });
    const mine = await unwrap(client.GET('/api/orders', {}));
    expect(mine.data.map((o) => o.id)).toEqual([first.id]);
  });

  it('throws a BookingApiError carrying the problem’s code and the fields at fault', async () => {
    const seller = await account(['ROLE_SELLER']);
    const experience = await publish(seller.client);
    const { client } = await account();
    const tooMany = client.POST('/api/orders', {
      body: {
        items: [
          {
            experience: { id: experience.id },
            arrival: '2031-09-03',
            arrivalTime: 1000,
            quantity: 4,
          },
        ],
      },
    });
    const problem = await failure(tooMany);
    expect(problem).toBeInstanceOf(BookingApiError);
    expect(problem.status).toBe(409);
    expect(problem.code).toBe('capacity_exceeded');
    expect(problem.problem).toMatchObject({ seatsLeft: 3 });

    const invalid = await failure(
      client.GET('/api/orders', { params: { query: { 'amount[gt]': 'lots' } as never } }),
    );
    expect(invalid.code).toBe('invalid_value');
    expect(invalid.problem.errors?.[0]).toMatchObject({ in: 'query', name: 'amount[gt]' });

    const unauthenticated = createBookingClient({ baseUrl, apiKey: 'not-a-key' });
    const refused = await failure(unauthenticated.GET('/api/users/me', {}));
    expect([refused.status, refused.code]).toEqual([401, 'invalid_credentials']);
  });

  it('follows paging.next through a whole list', async () => {
    const { client } = await account(['ROLE_SELLER']);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await publish(client, `Paged tour ${i}`)).id);
    const me = await unwrap(client.GET('/api/users/me', {}));
    const seen: string[] = [];
    for await (const experience of paginate(client, '/api/experiences', {
      seller: me.id,
      limit: 3,
    }))
      seen.push(experience.id);
    expect(seen.sort()).toEqual(made.sort());
    expect(new Set(seen).size).toBe(7);
  });

  it('pins the API version it was generated for, and can ask for another', async () => {
    const { client, user } = await account(['ROLE_SELLER']);
    const pinned = await client.GET('/api/users/me', {});
    expect(pinned.response.headers.get('x-api-version')).toBe(GENERATED_FOR_VERSION);
    const older = createBookingClient({ baseUrl, apiKey: user.apiKey, apiVersion: '2018-02-01' });
    const answer = await older.GET('/api/users/me', {});
    expect(answer.response.headers.get('x-api-version')).toBe('2017-09-28');
  });
});
