/**
 * The shared, named schemas of the API (`$ref: 'Order#'` and so on), registered once at the
 * root so every route can refer to them and the OpenAPI document lists them as components.
 */
import type { FastifyInstance } from 'fastify';
import { Problem } from './http/schemas.js';
import { Delegate } from './modules/delegates/delegates.schemas.js';
import { Event } from './modules/events/events.schemas.js';
import { Experience } from './modules/experiences/experiences.schemas.js';
import { Guide } from './modules/guides/guides.schemas.js';
import { Order } from './modules/orders/orders.schemas.js';
import { Schedule } from './modules/shared/schedule.schemas.js';
import { User } from './modules/users/users.schemas.js';

export function registerSchemas(app: FastifyInstance): void {
  for (const schema of [Problem, Schedule, User, Delegate, Experience, Event, Order, Guide]) {
    app.addSchema(schema);
  }
}
