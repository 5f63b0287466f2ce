/**
 * lock_not_available (55P03: a statement past `lock_timeout`, which an operator may set on
 * the app's role) is answered 503 like the database's other transient refusals, not 500.
 * test/postgres/lock-timeout-problem.test.ts has the real one, through the HTTP API.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isLockNotAvailable } from '../../src/db/errors.js';
import { toProblem } from '../../src/http/error-handler.js';

const request = { id: 'req-1' } as FastifyRequest;
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('a statement past its lock timeout', () => {
  it('is answered 503 service_unavailable', () => {
    const error = pgError('55P03', 'canceling statement due to lock timeout');
    expect(isLockNotAvailable(error)).toBe(true);
    expect(toProblem(error, request)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      detail: 'The data is locked by other work; retry shortly.',
    });
  });

  it('is told from other errors', () => {
    for (const error of [pgError('57014', 'statement timeout'), new Error('boom'), null])
      expect(isLockNotAvailable(error)).toBe(false);
  });
});
