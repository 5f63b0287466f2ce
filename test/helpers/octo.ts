/**
 * A seller selling through OCTo, made through the public API: two products (a boat tour with
 * adult and child guest types, a kayak without), a reseller credential with a commission,
 * and requests to /octo with a Bearer credential and the capabilities asked for.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { as, signUp, type Account } from './app.js';
import { expectOctoResponse, octoErrorProblems, type OctoErrorName } from './octo-spec.js';

export { expectOctoResponse as expectSpec };

/** An OCTo error as the specification and OCTo's validator want it: 400, its code, a message. */
export function expectOctoError(
  response: LightMyRequestResponse,
  code: OctoErrorName,
  status = 400,
): Record<string, unknown> {
  const context = `${response.statusCode} ${response.body}`;
  if (response.statusCode !== status) throw new Error(`expected ${status} ${code}, got ${context}`);
  if (!String(response.headers['content-type']).startsWith('application/json'))
    throw new Error(`expected JSON, got ${String(response.headers['content-type'])}`);
  const body = response.json();
  const problems = octoErrorProblems(code, body);
  if (problems.length > 0 || !body.errorMessage)
    throw new Error(`not OCTo's ${code}: ${problems.join('; ')} in ${context}`);
  return body;
}

export interface OctoShop {
  seller: Account;
  tour: string;
  kayak: string;
  adult: string;
  child: string;
  /** A reseller credential ("Klook", 12.5 % commission): its affiliate id and secret. */
  reseller: { id: string; apiKey: string };
}

/** Departures every day at `times` (HHMM). */
export const daily = (times: number[]) => [
  { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times },
];

export async function createExperience(
  app: FastifyInstance,
  seller: Account,
  fields: Record<string, unknown>,
): Promise<{ id: string; demographics: { id: string }[] }> {
  const response = await as(app, seller, {
    method: 'POST',
    url: '/api/experiences',
    payload: {
      name: 'Seine by boat',
      price: 25,
      priceType: 'person',
      currency: 'EUR',
      duration: 90,
      timezone: 'Europe/Paris',
      group: { outingMax: 10, orderMax: 10 },
      schedules: daily([900, 1400]),
      ...fields,
    },
  });
  if (response.statusCode !== 201) throw new Error(`experience not created: ${response.body}`);
  return response.json();
}

export async function createAffiliate(
  app: FastifyInstance,
  seller: Account,
  payload: Record<string, unknown> = { name: 'Klook', commission: { amount: 12.5 } },
): Promise<{ id: string; apiKey: string }> {
  const response = await as(app, seller, {
    method: 'POST',
    url: `/api/users/${seller.id}/affiliates`,
    payload,
  });
  if (response.statusCode !== 201) throw new Error(`affiliate not created: ${response.body}`);
  return response.json();
}

export async function openOctoShop(app: FastifyInstance): Promise<OctoShop> {
  const seller = await signUp(app, { name: 'Bateaux Verts', roles: ['ROLE_SELLER'] });
  const tour = await createExperience(app, seller, {
    demographics: [
      { label: 'Adult', code: 'adult' },
      { label: 'Child', code: 'child', price: 12.5 },
    ],
  });
  const kayak = await createExperience(app, seller, {
    name: 'Harbour kayak',
    price: 40,
    group: { outingMax: 4, orderMax: 4 },
    schedules: daily([1000]),
  });
  const reseller = await createAffiliate(app, seller);
  const [adult, child] = tour.demographics.map((d) => d.id) as [string, string];
  return { seller, tour: tour.id, kayak: kayak.id, adult, child, reseller };
}

/** A request to /octo with `Authorization: Bearer <key>`. */
export function octo(
  app: FastifyInstance,
  key: string | null,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  capabilities?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url: `/octo${url}`,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(capabilities === undefined ? {} : { 'octo-capabilities': capabilities }),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Today and a day `n` days later, as local dates (UTC's, near enough for a range). */
export const today = (days = 0): string =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
