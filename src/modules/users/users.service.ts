/**
 * The users service: accounts (sign-up, reading, changing), their API keys and their
 * metadata, with the rules of who may do what. Each use case is a top-level function in its
 * own file taking the users context first; this binds them to one context for the routes
 * and the CLI's trusted path.
 */
import type { Caller } from '../../domain/caller.js';
import type { Recorder } from '../idempotency/index.js';
import {
  create,
  get,
  me,
  update,
  replaySignUp,
  signUpStored,
  type AccountChange,
  type NewUser,
  type SignUpStored,
} from './accounts.service.js';
import { getApiKey, rotateApiKey } from './api-keys.service.js';
import { deleteMetadataKey, mergeMetadata } from './user-metadata.service.js';
import { usersContext, type UsersServiceDeps } from './users.context.js';

export type { NewUser } from './accounts.service.js';
export type { UsersServiceDeps } from './users.context.js';

export function usersService(deps: UsersServiceDeps) {
  const ctx = usersContext(deps);
  return {
    create: (input: NewUser, options?: { trusted?: boolean; record?: Recorder }) =>
      create(ctx, input, options),
    get: (caller: Caller, id: string, withMetadata: boolean) => get(ctx, caller, id, withMetadata),
    me: (caller: Caller, withMetadata: boolean) => me(ctx, caller, withMetadata),
    /** A sign-up's stored answer for Idempotency-Key replays, and its replay (accounts.service.ts). */
    signUpStored,
    replaySignUp: (stored: unknown) => replaySignUp(ctx, stored as SignUpStored),
    getApiKey: (caller: Caller, id: string) => getApiKey(ctx, caller, id),
    update: (caller: Caller, id: string, input: AccountChange, address: string) =>
      update(ctx, caller, id, input, address),
    rotateApiKey: (caller: Caller, id: string) => rotateApiKey(ctx, caller, id),
    mergeMetadata: (caller: Caller, id: string, pairs: Record<string, unknown>) =>
      mergeMetadata(ctx, caller, id, pairs),
    deleteMetadataKey: (caller: Caller, id: string, key: string) =>
      deleteMetadataKey(ctx, caller, id, key),
  };
}

export type UsersService = ReturnType<typeof usersService>;
