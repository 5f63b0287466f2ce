/**
 * Guides, their schedules, delegates, events and assignments made through the public API,
 * for the guide and version tests.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { as, signUp, type Account } from './app.js';
import { invitationEmail } from './invitations.js';

type Body = Record<string, unknown>;

/** Any hour of any day: a guide with this schedule is available for every event. */
export const ALWAYS = { type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6] };

/** Every day 08:00-18:00 (the events of openShop are 09:00 and 14:00, 90 minutes). */
export const DAYTIME = { ...ALWAYS, timeRanges: [{ startTime: 800, endTime: 1800 }] };

export interface Guide {
  id: string;
  name: string;
  user: { id: string } | null;
  schedules: (Body & { id: string })[];
  [field: string]: unknown;
}

/** A guide on an event and its answer (v2018-06-26). */
export interface EventGuide {
  status: 'pending' | 'confirmed' | 'declined';
  guide: { id: string };
}

export interface EventView {
  id: string;
  start: string;
  end: string;
  guides: EventGuide[];
  [field: string]: unknown;
}

/** The ids of an event's guides, in order (the latest shape). */
export const guideIdsOf = (event: { guides: EventGuide[] }): string[] =>
  event.guides.map((g) => g.guide.id);

export function guideRequest(
  app: FastifyInstance,
  account: Pick<Account, 'apiKey'> | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: Body,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return as(app, account, {
    method,
    url: `/api/sellers${url}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** POST /api/sellers/{id}/guides; throws unless 201. */
export async function createGuide(
  app: FastifyInstance,
  account: Account,
  sellerId: string,
  fields: Body = {},
): Promise<Guide> {
  const response = await guideRequest(app, account, 'POST', `/${sellerId}/guides`, {
    name: 'Gina Guide',
    schedules: [ALWAYS],
    ...fields,
  });
  if (response.statusCode !== 201) throw new Error(`guide not created: ${response.body}`);
  return response.json();
}

/**
 * A new user made a delegate of `seller` with `roles`: invited by email, and accepting (so
 * the seller knows who it is, as guide links and pre-2018-02-26 assignment need).
 */
export async function delegate(
  app: FastifyInstance,
  seller: Account,
  roles: string[],
  name = 'Delegate User',
): Promise<Account> {
  return makeDelegate(app, seller, await signUp(app, { name }), roles);
}

/**
 * An existing user invited as a delegate of `seller` by email, and accepting with the token of
 * the invitation email.
 */
export async function makeDelegate(
  app: FastifyInstance,
  seller: Account,
  user: Account,
  roles: string[],
): Promise<Account> {
  const response = await as(app, seller, {
    method: 'POST',
    url: `/api/users/${seller.id}/delegates`,
    payload: { email: user.email, roles },
  });
  if (response.statusCode !== 201) throw new Error(`delegate not added: ${response.body}`);
  const { token, acceptUrl } = await invitationEmail(app, response.json().id);
  const accepted = await as(app, user, { method: 'POST', url: acceptUrl, payload: { token } });
  if (accepted.statusCode !== 200) throw new Error(`delegation not accepted: ${accepted.body}`);
  return user;
}

/** POST /api/events; throws unless 201. */
export async function createEvent(
  app: FastifyInstance,
  account: Account,
  experienceId: string,
  start: string,
  fields: Body = {},
  headers: Record<string, string> = {},
): Promise<EventView> {
  const response = await as(app, account, {
    method: 'POST',
    url: '/api/events',
    payload: { experience: { id: experienceId }, start, ...fields },
    headers,
  });
  if (response.statusCode !== 201) throw new Error(`event not created: ${response.body}`);
  return response.json();
}

/** POST /api/events/{id}/guides with any body. */
export function assign(
  app: FastifyInstance,
  account: Pick<Account, 'apiKey'> | null,
  eventId: string,
  payload: Body,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return as(app, account, {
    method: 'POST',
    url: `/api/events/${eventId}/guides`,
    payload,
    headers,
  });
}

/** DELETE /api/events/{id}/guides/{guideId}. */
export function unassign(
  app: FastifyInstance,
  account: Pick<Account, 'apiKey'> | null,
  eventId: string,
  guideId: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return as(app, account, {
    method: 'DELETE',
    url: `/api/events/${eventId}/guides/${guideId}`,
    headers,
  });
}

/** GET /api/events/{id} as `account`. */
export function readEvent(
  app: FastifyInstance,
  account: Pick<Account, 'apiKey'>,
  eventId: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return as(app, account, { method: 'GET', url: `/api/events/${eventId}`, headers });
}

/** The ids of a list response's data, in order. */
export const idsOf = (response: LightMyRequestResponse): string[] =>
  response.json<{ data: { id: string }[] }>().data.map((o) => o.id);
