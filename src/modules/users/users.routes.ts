/** HTTP routes of users, API keys and metadata: each handler is one service call. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireCaller } from '../../http/auth.js';
import { invalid } from '../../domain/errors.js';
import { IdParams, authenticated, errorResponses, refTo } from '../../http/schemas.js';
import { idempotentCreate, type IdempotencyService } from '../idempotency/index.js';
import type { UsersService } from './users.service.js';
import { METADATA_LIMITS } from './metadata.rules.js';
import {
  ApiKey,
  CreateUserBody,
  Metadata,
  MetadataBody,
  MetadataParams,
  PrivateQuery,
  UpdateUserBody,
  User,
  type UserView,
} from './users.schemas.js';

const tags = ['users'];
const UserRef = refTo(User);
const ApiKeyRef = refTo(ApiKey);
const MetadataRef = refTo(Metadata);
const readErrors = errorResponses(
  'authentication_required',
  'invalid_credentials',
  'forbidden',
  'not_found',
);

export const usersRoutes: FastifyPluginAsyncTypebox<{
  users: UsersService;
  idempotency: IdempotencyService;
}> = async (app, { users, idempotency }) => {
  app.post(
    '/users',
    {
      schema: {
        tags,
        operationId: 'createUser',
        summary: 'Create an account; the response carries its API key',
        body: CreateUserBody,
        response: {
          201: UserRef,
          ...errorResponses(
            'validation_failed',
            'email_taken',
            'invalid_idempotency_key',
            'idempotency_key_reused',
            'idempotency_in_progress',
          ),
        },
      },
    },
    // A retried sign-up (same Idempotency-Key, same body, same client address, within 24 h)
    // answers with the same account, and its key while it is still the one first given; the
    // key itself is never stored for that.
    async (request, reply) =>
      idempotentCreate(
        idempotency,
        request,
        reply,
        null,
        (record) => users.create(request.body, { record }),
        {
          stored: (body) => users.signUpStored(body as UserView),
          replayed: (stored) => users.replaySignUp(stored),
        },
      ),
  );

  app.get(
    '/users/me',
    {
      schema: {
        tags,
        operationId: 'getMe',
        summary: 'The authenticated user, with its API key',
        security: authenticated,
        querystring: PrivateQuery,
        response: { 200: UserRef, ...readErrors },
      },
    },
    async (request) => users.me(requireCaller(request), request.query.private === true),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        operationId: 'getUser',
        summary: 'A user (self or admin); private=true adds metadata',
        security: authenticated,
        params: IdParams,
        querystring: PrivateQuery,
        response: { 200: UserRef, ...readErrors },
      },
    },
    async (request) =>
      users.get(requireCaller(request), request.params.id, request.query.private === true),
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags,
        operationId: 'updateUser',
        summary: 'Change name, email or password (self or admin); a new password rotates the key',
        description:
          'The email and the password change only with `currentPassword` (an admin needs none). A new password also rotates the API key: the answer carries the new `apiKey`, and the old one is refused at once.',
        security: authenticated,
        params: IdParams,
        body: UpdateUserBody,
        response: {
          200: UserRef,
          ...readErrors,
          ...errorResponses('validation_failed', 'email_taken', 'service_unavailable'),
        },
      },
    },
    async (request) =>
      users.update(requireCaller(request), request.params.id, request.body, request.ip),
  );

  app.get(
    '/users/:id/apiKey',
    {
      schema: {
        tags,
        operationId: 'getApiKey',
        summary: "The user's API key (self or admin)",
        security: authenticated,
        params: IdParams,
        response: { 200: ApiKeyRef, ...readErrors },
      },
    },
    async (request) => users.getApiKey(requireCaller(request), request.params.id),
  );

  app.post(
    '/users/:id/apiKey',
    {
      schema: {
        tags,
        operationId: 'rotateApiKey',
        summary: 'Rotate the API key; the old key stops working at once',
        security: authenticated,
        params: IdParams,
        response: { 200: ApiKeyRef, ...readErrors },
      },
    },
    async (request) => users.rotateApiKey(requireCaller(request), request.params.id),
  );

  app.post(
    '/users/:id/meta',
    {
      // The schema leaves values open, so it bounds no size: a write's pairs are at most
      // maxBytes of compact JSON (the merged metadata is); four times that leaves room for
      // whitespace and escapes (docs/security.md, "Request bodies").
      bodyLimit: 4 * METADATA_LIMITS.maxBytes,
      schema: {
        tags,
        operationId: 'mergeMetadata',
        summary: 'Merge metadata pairs; returns the whole metadata',
        security: authenticated,
        params: IdParams,
        body: MetadataBody,
        response: {
          200: MetadataRef,
          ...errorResponses(
            'validation_failed',
            'metadata_invalid',
            'metadata_limit_exceeded',
            'authentication_required',
            'forbidden',
            'not_found',
          ),
        },
      },
    },
    async (request) => users.mergeMetadata(requireCaller(request), request.params.id, request.body),
  );

  app.delete(
    '/users/:id/meta/*',
    {
      schema: {
        tags,
        operationId: 'deleteMetadataKey',
        summary: 'Remove one metadata key (it may contain "/"); returns the remaining metadata',
        security: authenticated,
        params: MetadataParams,
        response: {
          200: MetadataRef,
          ...errorResponses(
            'authentication_required',
            'forbidden',
            'not_found',
            'metadata_key_not_found',
          ),
        },
      },
    },
    async (request) => {
      const key = metadataKey(request.params['*']);
      return users.deleteMetadataKey(requireCaller(request), request.params.id, key);
    },
  );
};

/**
 * The wildcard as the router gives it, already percent-decoded once (`acme/rocket/crm_id` and
 * `acme%2Frocket%2Fcrm_id` are one key): decoding it again would read `a%2541` as `aA`, and
 * refuse any key with a `%` in it.
 */
function metadataKey(key: string): string {
  if (key !== '') return key;
  throw invalid('path', 'property', 'must be a non-empty key');
}
