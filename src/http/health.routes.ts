/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database does). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../db/database.js';
import { ApiError } from './errors.js';
import { errorResponses } from './schemas.js';

const Status = Type.Object({ status: Type.Literal('ok') });

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], response: { 200: Status, ...errorResponses() } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        response: { 200: Status, ...errorResponses('service_unavailable') },
      },
    },
    async () => {
      try {
        await sql`select 1`.execute(db);
      } catch {
        throw new ApiError('service_unavailable', 'The database is not reachable.');
      }
      return { status: 'ok' as const };
    },
  );
};
