/**
 * What every use case of accounts runs with (the database, the API-key cipher, the version
 * new accounts are pinned to, where `user.update` goes, this instance's cache of verified
 * keys), and what they share: new key material, the account only itself or an admin may
 * touch, the refusal of a taken email. The use-case files (accounts, api-keys,
 * user-metadata) are top-level functions taking this context first; users.service.ts binds
 * them to one.
 */
import type { Db } from '../../db/database.js';
import { DomainError, forbidden, notFound } from '../../domain/errors.js';
import { isSelfOrAdmin, type Caller } from '../../domain/caller.js';
import { noEvents, type EventSink } from '../../outbox/index.js';
import { apiKeyDigest, generateApiKey, type ApiKeyCipher } from '../../security/api-keys.js';
import type { CallerCache } from './caller-cache.js';
import { usersRepository, type UserRow } from './users.repository.js';

export interface UsersServiceDeps {
  db: Db;
  cipher: ApiKeyCipher;
  /** The version new accounts are pinned to. */
  latestVersion: string;
  /** Where `user.update` goes (its metadata changed), in the change's transaction. */
  domainEvents?: EventSink;
  /** Verified API keys of this instance (caller-cache.ts): dropped when a key rotates. */
  callers?: CallerCache;
  /**
   * Current passwords counted as sign-in attempts (http/auth-throttle.ts: per address, per
   * account and address, per account), before the password is hashed: the one
   * place a caller holding only an API key can test a password, which otherwise answered
   * a thousand guesses a minute.
   */
  passwordAttempts?: PasswordAttempts;
}

export interface PasswordAttempts {
  /**
   * Runs `verify` (the hash) as one attempt of `address` at this account's password: counted
   * before it runs, forgiven when it answers true; throws 429 when the address must wait.
   */
  tryPassword(address: string, email: string, verify: () => Promise<boolean>): Promise<boolean>;
}

const UNCOUNTED: PasswordAttempts = {
  tryPassword: (_address, _email, verify) => verify(),
};

/** The dependencies with their defaults; without a cache there is none to drop keys from. */
export type UsersContext = Required<Omit<UsersServiceDeps, 'callers'>> &
  Pick<UsersServiceDeps, 'callers'>;

export const usersContext = (deps: UsersServiceDeps): UsersContext => ({
  domainEvents: noEvents,
  passwordAttempts: UNCOUNTED,
  ...deps,
});

/** A new API key, its digest (what authentication looks up) and its ciphertext (to show it again). */
export function keyMaterial(ctx: UsersContext, userId: string) {
  const apiKey = generateApiKey();
  return { apiKey, digest: apiKeyDigest(apiKey), ciphertext: ctx.cipher.encrypt(apiKey, userId) };
}

/** The user `id` if the caller is that user or an admin; 403 for anyone else. */
export async function ownedUser(
  ctx: UsersContext,
  caller: Caller,
  id: string,
  action: string,
): Promise<UserRow> {
  if (!isSelfOrAdmin(caller, id)) throw forbidden(`Only the user or an admin may ${action}.`);
  const row = await usersRepository(ctx.db).findById(id);
  if (!row) throw notFound(`User ${id}`);
  return row;
}

/** 409 for an email another account has (the unique index `users_email_key`). */
export const emailTaken = (detail: string) =>
  new DomainError('email_taken', 'An account with this email already exists.', {
    errors: [{ in: 'body', name: 'email', detail }],
  });
