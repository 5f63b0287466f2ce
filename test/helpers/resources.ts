/**
 * A seller's shared resource and experiences departing on it, made through the public API,
 * for the resources suites.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { as, type Account } from './app.js';

export type ResourceUses = { resource: { id: string }; seatsPerGuest?: number }[];

/** A resource of `seller` (201 asserted); its id. */
export async function createBoat(
  app: FastifyInstance,
  seller: Account,
  capacity = 10,
  name = 'Shared boat',
): Promise<string> {
  const response = await as(app, seller, {
    method: 'POST',
    url: '/api/resources',
    payload: { name, capacity },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/**
 * An experience of `seller` in UTC departing every day at `times`, 50 seats, on `resources`
 * (201 asserted); its id.
 */
export async function createExperienceOn(
  app: FastifyInstance,
  seller: Account,
  resources: ResourceUses,
  { duration = 60, times = [900] }: { duration?: number; times?: number[] } = {},
): Promise<string> {
  const response = await as(app, seller, {
    method: 'POST',
    url: '/api/experiences',
    payload: {
      name: `Tour at ${times.join('-')}`,
      price: 10,
      priceType: 'person',
      currency: 'EUR',
      duration,
      timezone: 'UTC',
      group: { outingMax: 50 },
      schedules: [{ type: 'available', repeat: 'weekly', days: [0, 1, 2, 3, 4, 5, 6], times }],
      resources,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}
