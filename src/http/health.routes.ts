/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database does,
 * in time, and the instance is not draining for a shutdown: a balancer stops sending it
 * requests).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ping, type Db } from '../db/database.js';
import { DomainError } from '../domain/errors.js';
import { errorResponses, refTo } from './schemas.js';

/**
 * How long readiness waits for the database before answering 503: under HAProxy's check
 * timeout (its `inter`, 1 s in deploy/haproxy.cfg), so the balancer reads a 503 rather than
 * a check that timed out, and a database that does not answer never hangs the check.
 */
export const READY_TIMEOUT_MS = 800;

const Health = Type.Object({ status: Type.Literal('ok') }, { $id: 'Health' });
const HealthRef = refTo(Health);

/** Whether the instance is on its way out (server.ts sets it on SIGTERM). */
export interface Readiness {
  draining: boolean;
}

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; readiness: Readiness }> = async (
  app,
  { db, readiness },
) => {
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
      if (readiness.draining)
        throw new DomainError('service_unavailable', 'This instance is shutting down.');
      try {
        await ping(db, READY_TIMEOUT_MS);
      } catch {
        throw new DomainError('service_unavailable', 'The database is not reachable.');
      }
      return { status: 'ok' as const };
    },
  );
};
