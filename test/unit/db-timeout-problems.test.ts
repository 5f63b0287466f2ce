/**
 * What the server's session limits (SERVER_LIMITS, db/database.ts) end is answered 503 with
 * Retry-After, like a lost database, not 500: a statement past statement_timeout (57014), a
 * session ended for idling in a transaction (25P03). Both are the database's state, not the
 * request's fault, and likely to pass. test/postgres/session-limits.test.ts has the real ones.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isConnectionError, isStatementTimeout } from '../../src/db/errors.js';
import { toProblem } from '../../src/http/error-handler.js';

const request = { id: 'req-1' } as FastifyRequest;
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('database timeouts', () => {
  it('answers a statement cancelled by statement_timeout 503', () => {
    const error = pgError('57014', 'canceling statement due to statement timeout');
    expect(isStatementTimeout(error)).toBe(true);
    expect(toProblem(error, request)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
  });

  it('answers a session ended for idling in a transaction 503', () => {
    const error = pgError('25P03', 'terminating connection due to idle-in-transaction timeout');
    expect(isConnectionError(error)).toBe(true);
    expect(toProblem(error, request)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
  });

  it.each(['53100', '53200'])('answers a database out of disk or memory (%s) 503', (code) => {
    const error = pgError(code, 'could not extend file: No space left on device');
    expect(toProblem(error, request)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
    });
  });

  it('leaves other errors alone', () => {
    expect(isStatementTimeout(pgError('55P03', 'canceling statement due to lock timeout'))).toBe(
      false,
    );
    expect(isStatementTimeout(new Error('boom'))).toBe(false);
  });
});
