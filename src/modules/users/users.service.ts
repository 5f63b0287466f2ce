/**
 * Accounts: creation, reading, API keys and metadata, with the rules of who may do what.
 */
import type { Db } from '../../db/database.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { emitChange, noEvents, type EventSink } from '../../outbox/index.js';
import { announceCallerChange, type CallerCache } from './caller-cache.js';
import type { Recorder } from '../idempotency/index.js';
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { DomainError, forbidden, invalid, invalidFields, notFound } from '../../domain/errors.js';
import { apiKeyDigest, generateApiKey, type ApiKeyCipher } from '../../security/api-keys.js';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import {
  DEFAULT_ROLES,
  SELF_ASSIGNABLE_ROLES,
  isAdmin,
  isSelfOrAdmin,
  type Caller,
} from '../../domain/caller.js';
import { metadataLimitError, metadataPairErrors } from './metadata.rules.js';
import { toUserView, type UserView } from './users.schemas.js';
import { usersRepository, type UserRow } from './users.repository.js';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  roles?: string[];
}

export interface UsersServiceDeps {
  db: Db;
  cipher: ApiKeyCipher;
  /** The version new accounts are pinned to. */
  latestVersion: string;
  /** Where `user.update` goes (its metadata changed), in the change's transaction. */
  domainEvents?: EventSink;
  /** Verified API keys of this instance (caller-cache.ts): dropped when a key rotates. */
  callers?: CallerCache;
}

export function usersService({
  db,
  cipher,
  latestVersion,
  domainEvents = noEvents,
  callers,
}: UsersServiceDeps) {
  const repo = usersRepository(db);

  /** Writes new metadata and emits `user.update` to the user's own hooks. */
  async function writeMetadata(
    tx: Tx,
    actorId: string,
    id: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ): Promise<void> {
    const users = usersRepository(tx);
    await users.writeMetadata(id, after);
    const view = toUserView((await users.findById(id))!, { metadata: true });
    await domainEvents.emit(tx, {
      name: 'user.update',
      sellerId: id,
      actorId,
      object: view,
      audit: { metadata: { old: before, new: after } },
    });
  }

  function keyMaterial(userId: string) {
    const apiKey = generateApiKey();
    return { apiKey, digest: apiKeyDigest(apiKey), ciphertext: cipher.encrypt(apiKey, userId) };
  }

  /** The user `id` if the caller is that user or an admin; 403 for anyone else. */
  async function ownedUser(caller: Caller, id: string, action: string): Promise<UserRow> {
    if (!isSelfOrAdmin(caller, id)) throw forbidden(`Only the user or an admin may ${action}.`);
    const row = await repo.findById(id);
    if (!row) throw notFound(`User ${id}`);
    return row;
  }

  return {
    /**
     * Creates an account; returns it with its API key (the one time a key is volunteered).
     * `trusted` (the CLI) may grant any role; the public endpoint only self-assignable ones.
     */
    async create(
      input: NewUser,
      { trusted = false, record }: { trusted?: boolean; record?: Recorder } = {},
    ): Promise<UserView> {
      const forbiddenRole = input.roles?.find(
        (role) => !(SELF_ASSIGNABLE_ROLES as readonly string[]).includes(role),
      );
      if (forbiddenRole && !trusted) {
        throw new DomainError(
          'validation_failed',
          `roles: ${forbiddenRole} cannot be self-assigned.`,
          {
            errors: [
              { in: 'body', name: 'roles', detail: `${forbiddenRole} cannot be self-assigned` },
            ],
          },
        );
      }
      const id = newId();
      const { apiKey, digest, ciphertext } = keyMaterial(id);
      const roles = [
        ...new Set(input.roles && input.roles.length > 0 ? input.roles : DEFAULT_ROLES),
      ];
      const passwordHash = await hashPassword(input.password);
      try {
        const row = await inTransaction(db, async (tx) => {
          const inserted = await usersRepository(tx).insert({
            id,
            name: input.name.trim(),
            email: input.email.trim(),
            password_hash: passwordHash,
            roles,
            api_key_digest: digest,
            api_key_ciphertext: ciphertext,
            api_version: latestVersion,
          });
          await record?.(tx, { status: 201, body: toUserView(inserted) });
          return inserted;
        });
        return toUserView(row, { apiKey });
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_key')) {
          throw new DomainError('email_taken', 'An account with this email already exists.', {
            errors: [{ in: 'body', name: 'email', detail: 'is already registered' }],
          });
        }
        throw error;
      }
    },

    async get(caller: Caller, id: string, withMetadata: boolean): Promise<UserView> {
      const row = await ownedUser(caller, id, 'read this user');
      return toUserView(row, { metadata: withMetadata });
    },

    async me(caller: Caller, withMetadata: boolean): Promise<UserView> {
      const row = await ownedUser(caller, caller.id, 'read this user');
      return toUserView(row, {
        metadata: withMetadata,
        apiKey: cipher.decrypt(row.api_key_ciphertext, row.id),
      });
    },

    /** A stored sign-up answer with the account's key, for its replay (the current key). */
    async withApiKey(account: UserView): Promise<UserView> {
      const row = await repo.findById(account.id);
      if (!row) throw notFound(`User ${account.id}`);
      return { ...account, apiKey: cipher.decrypt(row.api_key_ciphertext, row.id) };
    },

    async getApiKey(caller: Caller, id: string): Promise<{ apiKey: string }> {
      const row = await ownedUser(caller, id, 'read its API key');
      return { apiKey: cipher.decrypt(row.api_key_ciphertext, row.id) };
    },

    /** Issues a new key; the old one is refused from the next request on. */
    /**
     * Changes the user's name, email or password (the user itself, or an admin). The email
     * and the password change only with the current password (a leaked API key alone must
     * not take the account over); a new password also rotates the API key (DESIGN.md
     * section 5), which the answer carries, the old key refused at once on every instance.
     */
    async update(
      caller: Caller,
      id: string,
      input: { name?: string; email?: string; password?: string; currentPassword?: string },
    ): Promise<UserView> {
      const row = await ownedUser(caller, id, 'change this user');
      const email = input.email?.toLowerCase();
      const guarded = input.password !== undefined || (email !== undefined && email !== row.email);
      if (guarded && !isAdmin(caller)) {
        if (input.currentPassword === undefined) {
          throw invalid('body', 'currentPassword', 'is required to change the email or password');
        }
        if (!(await verifyPassword(input.currentPassword, row.password_hash))) {
          throw new DomainError('forbidden', 'The current password is not right.', {
            errors: [{ in: 'body', name: 'currentPassword', detail: 'is not right' }],
          });
        }
      }
      const key = input.password === undefined ? undefined : keyMaterial(id);
      const changes = {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(email !== undefined ? { email } : {}),
        ...(input.password !== undefined
          ? { password_hash: await hashPassword(input.password) }
          : {}),
        ...(key ? { api_key_digest: key.digest, api_key_ciphertext: key.ciphertext } : {}),
      };
      const before = toUserView(row, {});
      const view = await inTransaction(db, async (tx) => {
        const users = usersRepository(tx);
        try {
          await users.updateProfile(id, changes);
        } catch (error) {
          if (isUniqueViolation(error, 'users_email_key')) {
            throw new DomainError('email_taken', 'An account with this email already exists.', {
              errors: [{ in: 'body', name: 'email', detail: 'is taken' }],
            });
          }
          throw error;
        }
        await announceCallerChange(tx, id);
        const after = toUserView((await users.findById(id))!, {});
        await emitChange(domainEvents, tx, {
          name: 'user.update',
          sellerId: id,
          actorId: caller.id,
          after,
          before,
        });
        return after;
      });
      callers?.invalidate(id);
      if (key) await callers?.propagated();
      return key ? { ...view, apiKey: key.apiKey } : view;
    },

    async rotateApiKey(caller: Caller, id: string): Promise<{ apiKey: string }> {
      await ownedUser(caller, id, 'rotate its API key');
      const { apiKey, digest, ciphertext } = keyMaterial(id);
      await inTransaction(db, async (tx) => {
        if (!(await usersRepository(tx).replaceApiKey(id, digest, ciphertext))) {
          throw notFound(`User ${id}`);
        }
        await announceCallerChange(tx, id);
      });
      // This instance forgets the old key now; the answer waits until no other instance's
      // cache can still serve it (caller-cache.ts: bounded staleness).
      callers?.invalidate(id);
      await callers?.propagated();
      return { apiKey };
    },

    async mergeMetadata(
      caller: Caller,
      id: string,
      pairs: Record<string, unknown>,
    ): Promise<Record<string, unknown>> {
      if (!isSelfOrAdmin(caller, id)) throw forbidden('Only the user or an admin may do this.');
      const errors = metadataPairErrors(pairs);
      if (errors.length > 0) throw invalidFields(errors, 'metadata_invalid');
      return inTransaction(db, async (trx) => {
        const locked = usersRepository(trx);
        const current = await locked.lockMetadata(id);
        if (!current) throw notFound(`User ${id}`);
        const merged = { ...current, ...pairs };
        const tooBig = metadataLimitError(merged);
        if (tooBig) throw new DomainError('metadata_limit_exceeded', tooBig);
        await writeMetadata(trx, caller.id, id, current, merged);
        return merged;
      });
    },

    async deleteMetadataKey(
      caller: Caller,
      id: string,
      key: string,
    ): Promise<Record<string, unknown>> {
      if (!isSelfOrAdmin(caller, id)) throw forbidden('Only the user or an admin may do this.');
      return inTransaction(db, async (trx) => {
        const locked = usersRepository(trx);
        const current = await locked.lockMetadata(id);
        if (!current) throw notFound(`User ${id}`);
        if (!Object.hasOwn(current, key)) {
          throw new DomainError('metadata_key_not_found', `The metadata has no key "${key}".`);
        }
        const { [key]: _removed, ...rest } = current;
        await writeMetadata(trx, caller.id, id, current, rest);
        return rest;
      });
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
