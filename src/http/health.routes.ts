/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database does). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ping, type Db } from '../db/database.js';
import { DomainError } from '../domain/errors.js';
import { errorResponses, refTo } from './schemas.js';

const Health = Type.Object({ status: Type.Literal('ok') }, { $id: 'Health' });
const HealthRef = refTo(Health);

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.addSchema(Health);
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        response: { 200: HealthRef, ...errorResponses() },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        response: { 200: HealthRef, ...errorResponses('service_unavailable') },
      },
    },
    async () => {
      try {
        await ping(db);
      } catch {
        throw new DomainError('service_unavailable', 'The database is not reachable.');
      }
      return { status: 'ok' as const };
    },
  );
};
