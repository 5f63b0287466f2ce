/**
 * Authentication on every request: `X-API-KEY` header or `apiKey` query parameter, or,
 * in the sandbox only, HTTP Basic with email:password. Credentials that are present but
 * wrong are a 401 even on public endpoints; never silently ignored. Failures are counted and
 * throttled (auth-throttle.ts): a password attempt before it is hashed, a key after its
 * lookup; `countingFailures` counts another credential's (a publishable key's) with them.
 */
import type { FastifyRequest } from 'fastify';
import type { BookingEnv } from '../config.js';
import type { Caller } from '../domain/caller.js';
import { DomainError } from '../domain/errors.js';
import type { AuthThrottle } from './auth-throttle.js';
import { textProblem } from './input-text.js';
import { routeOf } from './route-of.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks its own Authorization header: no caller is read from it. */
    ownCredentials?: boolean;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Turns credentials into a caller, or throws invalid_credentials (the users module's). */
export interface Authenticator {
  /** The caller of a key the cache holds and may give at once; undefined: ask `byApiKey`. */
  cachedApiKey(apiKey: string): Caller | undefined;
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

const failedCredentials = (error: unknown) =>
  error instanceof DomainError && error.code === 'invalid_credentials';

export function authenticationHook(
  auth: Authenticator,
  env: BookingEnv,
  throttle: AuthThrottle,
  /** Requests another hook authenticates (a module's own scheme: OCTo's Bearer). */
  elsewhere: (request: FastifyRequest) => boolean = () => false,
) {
  /**
   * Registered through atOnceOrAfter: an anonymous request, and a key the cache gives at
   * once (most requests), are done without a promise; the rest go on in `verify`.
   */
  return function authenticate(request: FastifyRequest): Promise<void> | undefined {
    if (elsewhere(request)) return undefined;
    // A route that reads its own Authorization (GET /metrics' token) is not a caller's.
    if (routeOf(request).config?.ownCredentials) return undefined;
    let credentials: Credentials | null;
    try {
      credentials = readCredentials(request);
    } catch (error) {
      return refuse(request, error);
    }
    if (credentials === null) return undefined;
    if (credentials.kind === 'apiKey') {
      const known = auth.cachedApiKey(credentials.apiKey);
      if (known) {
        request.caller = known;
        return undefined;
      }
    }
    return verify(request, credentials);
  };

  async function refuse(request: FastifyRequest, error: unknown): Promise<void> {
    if (failedCredentials(error)) await throttle.failed(request.ip);
    throw error;
  }

  async function verify(request: FastifyRequest, credentials: Credentials): Promise<void> {
    if (credentials.kind === 'basic' && env !== 'sandbox') {
      throw new DomainError(
        'basic_auth_sandbox_only',
        'Basic authentication is accepted only in the sandbox environment; send X-API-KEY.',
      );
    }
    if (credentials.kind === 'apiKey') {
      // A key lookup is cheap, and a valid key is never a guess: only failures are counted,
      // and past the limit the answer to one is 429 instead of 401.
      try {
        request.caller = await auth.byApiKey(credentials.apiKey);
      } catch (error) {
        if (!failedCredentials(error)) throw error;
        await throttle.failed(request.ip);
        await throttle.check(request.ip);
        throw error;
      }
      return;
    }
    const { email, password } = credentials;
    // Counted before the expensive part, a password hash; forgiven when it is right.
    let refusal: unknown;
    const right = await throttle.tryPassword(request.ip, email, async () => {
      try {
        request.caller = await auth.byPassword(email, password);
        return true;
      } catch (error) {
        if (!failedCredentials(error)) throw error;
        refusal = error;
        return false;
      }
    });
    if (!right) throw refusal;
  }
}

/**
 * Another credential's onRequest hook (a publishable key's, say) whose refusals count as
 * failed authentications from the client address, with a bad API key's: past the limit
 * the answer is 429 instead of 401. A live credential is never counted: it is not a guess.
 */
export function countingFailures(
  hook: (request: FastifyRequest) => Promise<void>,
  throttle: AuthThrottle,
) {
  return async function authenticateCounted(request: FastifyRequest) {
    try {
      await hook(request);
    } catch (error) {
      if (!failedCredentials(error)) throw error;
      await throttle.failed(request.ip);
      await throttle.check(request.ip);
      throw error;
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
