import { describe, expect, it } from 'vitest';
import { isConnectionError, isDataException, isResourceExhausted } from '../../src/db/errors.js';

describe('isConnectionError', () => {
  it.each([
    { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' },
    { code: 'ECONNRESET', message: 'read ECONNRESET' },
    { code: '57P01', message: 'terminating connection due to administrator command' },
    { code: '57P03', message: 'the database system is starting up' },
    { code: '08006', message: 'connection failure' },
    { message: 'Connection terminated unexpectedly' },
    { message: 'timeout exceeded when trying to connect' },
    { message: 'Client has encountered a connection error and is not queryable' },
  ])('recognises %j', (error) => {
    expect(isConnectionError(Object.assign(new Error(error.message), error))).toBe(true);
  });

  it.each([
    { code: '23505', message: 'duplicate key value violates unique constraint' },
    { code: '40P01', message: 'deadlock detected' },
    { code: '22P02', message: 'invalid input syntax' },
    // A message the server refused (too many parameters): a bug, not an outage.
    {
      code: '08P01',
      message: 'bind message supplies 12464 parameters, but prepared statement requires 78000',
    },
    { message: 'boom' },
  ])('does not take %j for a lost connection', (error) => {
    expect(isConnectionError(Object.assign(new Error(error.message), error))).toBe(false);
  });

  it('is false for things that are not errors', () => {
    expect(isConnectionError(undefined)).toBe(false);
    expect(isConnectionError('ECONNREFUSED')).toBe(false);
  });
});

describe('isDataException', () => {
  it('recognises SQLSTATE class 22 and nothing else', () => {
    for (const code of ['22003', '22P02', '22021', '22P05', '22007'])
      expect(isDataException({ code }), code).toBe(true);
    for (const code of ['23505', '08006', '2200', 'ECONNRESET', undefined])
      expect(isDataException({ code }), String(code)).toBe(false);
  });
});

describe('isResourceExhausted', () => {
  it('recognises a database out of disk or memory, and nothing else', () => {
    for (const code of ['53000', '53100', '53200'])
      expect(isResourceExhausted({ code }), code).toBe(true);
    // Too many connections is a connection error; the rest of class 53 is configuration.
    for (const code of ['53300', '53400', '23505', '57014', 'ENOSPC', undefined])
      expect(isResourceExhausted({ code }), String(code)).toBe(false);
  });
});
