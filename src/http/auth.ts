/**
 * Authentication on every request: `X-API-KEY` header or `apiKey` query parameter, or,
 * in the sandbox only, HTTP Basic with email:password. Credentials that are present but
 * wrong are a 401 even on public endpoints; never silently ignored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BookingEnv } from '../config.js';
import type { Caller } from '../domain/caller.js';
import { DomainError } from '../domain/errors.js';
import { textProblem } from './input-text.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Turns credentials into a caller, or throws invalid_credentials (the users module's). */
export interface Authenticator {
  byApiKey(apiKey: string): Promise<Caller>;
  byPassword(email: string, password: string): Promise<Caller>;
}

type Credentials =
  { kind: 'apiKey'; apiKey: string } | { kind: 'basic'; email: string; password: string };

/** The credentials a request carries; the API key wins when several are sent. */
function readCredentials(request: FastifyRequest): Credentials | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return { kind: 'apiKey', apiKey: header };
  const query = (request.query as Record<string, unknown> | undefined)?.apiKey;
  if (query !== undefined) {
    if (typeof query !== 'string') {
      throw new DomainError('invalid_credentials', 'Send apiKey once.');
    }
    return { kind: 'apiKey', apiKey: query };
  }
  const authorization = request.headers.authorization;
  if (authorization === undefined) return null;
  const [scheme, value = ''] = authorization.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic') {
    throw new DomainError(
      'unsupported_authorization',
      'Send the API key in X-API-KEY (or the apiKey query parameter).',
    );
  }
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1)
    throw new DomainError('invalid_credentials', 'Basic credentials must be email:password.');
  const email = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  // Text the database cannot hold is no account's email: the same answer as a wrong one.
  if (textProblem(email) || textProblem(password)) {
    throw new DomainError('invalid_credentials', 'The credentials were not recognised.');
  }
  return { kind: 'basic', email, password };
}

export function authenticationHook(auth: Authenticator, env: BookingEnv) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const credentials = readCredentials(request);
    if (credentials === null) return;
    if (credentials.kind === 'apiKey') {
      request.caller = await auth.byApiKey(credentials.apiKey);
    } else {
      if (env !== 'sandbox') {
        throw new DomainError(
          'basic_auth_sandbox_only',
          'Basic authentication is accepted only in the sandbox environment; send X-API-KEY.',
        );
      }
      request.caller = await auth.byPassword(credentials.email, credentials.password);
    }
  };
}

/** The caller of a route that needs one; 401 for anonymous requests. */
export function requireCaller(request: FastifyRequest): Caller {
  if (request.caller === null) {
    throw new DomainError(
      'authentication_required',
      'This endpoint needs credentials: send X-API-KEY (or the apiKey query parameter).',
    );
  }
  return request.caller;
}
