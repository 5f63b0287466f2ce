/**
 * Accounts: signing up (`POST /api/users`, and the CLI's trusted path), reading one's own
 * account, and changing its name, email or password; the email and the password only with
 * the current password, and a new password rotates the API key.
 */
import { isUniqueViolation } from '../../db/errors.js';
import { newId } from '../../db/ids.js';
import { inTransaction } from '../../db/unit-of-work.js';
import { DEFAULT_ROLES, SELF_ASSIGNABLE_ROLES, isAdmin, type Caller } from '../../domain/caller.js';
import { DomainError, invalid, invalidFields, notFound } from '../../domain/errors.js';
import { bodyChecker } from '../../http/validation.js';
import { emitChange } from '../../outbox/index.js';
import { apiKeyDigestText, digestBytes, digestsEqual } from '../../security/api-keys.js';
import { hashPassword, verifyPassword } from '../../security/passwords.js';
import type { Recorder } from '../idempotency/index.js';
import { announceCallerChange } from './caller-cache.js';
import { emailTaken, keyMaterial, ownedUser, type UsersContext } from './users.context.js';
import { usersRepository, type UserRow } from './users.repository.js';
import { NewAccountFields, toUserView, type UserView } from './users.schemas.js';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  roles?: string[];
}

export interface AccountChange {
  name?: string;
  email?: string;
  password?: string;
  currentPassword?: string;
}

/**
 * Creates an account; returns it with its API key (the one time a key is volunteered).
 * `trusted` (the CLI) may grant any role; the public endpoint only self-assignable ones.
 */
/** The API's rules for a new account's name, email and password, for callers that skip the route. */
const accountFieldErrors = bodyChecker(NewAccountFields);

export async function create(
  ctx: UsersContext,
  input: NewUser,
  { trusted = false, record }: { trusted?: boolean; record?: Recorder } = {},
): Promise<UserView> {
  // The route has checked its body already; the command line has not (an address without
  // an @, a one-letter password or a 10 MB name would otherwise be stored).
  if (trusted) {
    const { name, email, password } = input;
    const errors = accountFieldErrors({ name, email, password });
    if (errors.length > 0) throw invalidFields(errors);
  }
  const forbiddenRole = input.roles?.find(
    (role) => !(SELF_ASSIGNABLE_ROLES as readonly string[]).includes(role),
  );
  if (forbiddenRole && !trusted) {
    throw new DomainError('validation_failed', `roles: ${forbiddenRole} cannot be self-assigned.`, {
      errors: [{ in: 'body', name: 'roles', detail: `${forbiddenRole} cannot be self-assigned` }],
    });
  }
  const id = newId();
  const { apiKey, digest, ciphertext } = keyMaterial(ctx, id);
  const roles = [...new Set(input.roles && input.roles.length > 0 ? input.roles : DEFAULT_ROLES)];
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await inTransaction(ctx.db, async (tx) => {
      const inserted = await usersRepository(tx).insert({
        id,
        name: input.name.trim(),
        email: input.email.trim(),
        password_hash: passwordHash,
        roles,
        api_key_digest: digest,
        api_key_ciphertext: ciphertext,
        api_version: ctx.latestVersion,
      });
      // The route stores the key's digest in its place (users.routes.ts, signUpStored).
      await record?.(tx, { status: 201, body: toUserView(inserted, { apiKey }) });
      return inserted;
    });
    return toUserView(row, { apiKey });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw emailTaken('is already registered');
    throw error;
  }
}

export async function get(
  ctx: UsersContext,
  caller: Caller,
  id: string,
  withMetadata: boolean,
): Promise<UserView> {
  const row = await ownedUser(ctx, caller, id, 'read this user');
  return toUserView(row, { metadata: withMetadata });
}

export async function me(
  ctx: UsersContext,
  caller: Caller,
  withMetadata: boolean,
): Promise<UserView> {
  const row = await ownedUser(ctx, caller, caller.id, 'read this user');
  return toUserView(row, {
    metadata: withMetadata,
    apiKey: ctx.cipher.decrypt(row.api_key_ciphertext, row.id),
  });
}

/**
 * What a sign-up's Idempotency-Key stores for its replays: the account, and the digest of
 * the key it was given (never the key).
 */
export function signUpStored(created: UserView): SignUpStored {
  const { apiKey, ...account } = created;
  return { ...account, issuedKey: apiKeyDigestText(apiKey ?? '') };
}

/**
 * A replayed sign-up answers with the account's key only while it is still the key that
 * sign-up gave: once a password change (or anything else) rotated it, whoever still has the
 * sign-up request (a proxy's log, a shared machine) would otherwise get every new key back
 * for the replay's 24 h, which is what the rotation was to lock out. It then answers without
 * one; the owner reads it with its password from /users/me.
 */
export async function replaySignUp(ctx: UsersContext, stored: SignUpStored): Promise<UserView> {
  const { issuedKey, ...account } = stored;
  const row = await usersRepository(ctx.db).findById(account.id);
  if (!row) throw notFound(`User ${account.id}`);
  const same =
    typeof issuedKey === 'string' && digestsEqual(digestBytes(issuedKey), row.api_key_digest);
  return same
    ? { ...account, apiKey: ctx.cipher.decrypt(row.api_key_ciphertext, row.id) }
    : account;
}

export type SignUpStored = Omit<UserView, 'apiKey'> & { issuedKey?: string };

/**
 * The email a change asks for, lower-cased, when it is another address (undefined when it
 * is none, or the account's own in any case: sign-up keeps the case it was typed in, and a
 * client that sends the user back as it read it changes nothing).
 */
function newEmail(row: UserRow, input: AccountChange): string | undefined {
  const email = input.email?.trim().toLowerCase();
  return email === undefined || email === row.email.toLowerCase() ? undefined : email;
}

/**
 * The email and the password change only with the current password (a leaked API key
 * alone must not take the account over); an admin needs none. Returns the hash the current
 * password was checked against, which the change then requires still to be the stored one.
 */
async function checkGuarded(
  ctx: UsersContext,
  caller: Caller,
  row: UserRow,
  input: AccountChange,
  address: string,
): Promise<string | undefined> {
  const guarded = input.password !== undefined || newEmail(row, input) !== undefined;
  if (!guarded || isAdmin(caller)) return undefined;
  const current = input.currentPassword;
  if (current === undefined) {
    throw invalid('body', 'currentPassword', 'is required to change the email or password');
  }
  // Counted as sign-ins are: a wrong guess waits its turn, whatever key sends it.
  const right = await ctx.passwordAttempts.tryPassword(address, row.email, () =>
    verifyPassword(current, row.password_hash),
  );
  if (!right) throw wrongPassword();
  return row.password_hash;
}

const wrongPassword = () =>
  new DomainError('forbidden', 'The current password is not right.', {
    errors: [{ in: 'body', name: 'currentPassword', detail: 'is not right' }],
  });

/**
 * Changes the user's name, email or password (the user itself, or an admin). A new
 * password also rotates the API key (DESIGN.md section 5), which the answer carries, the
 * old key refused at once on every instance.
 */
export async function update(
  ctx: UsersContext,
  caller: Caller,
  id: string,
  input: AccountChange,
  address: string,
): Promise<UserView> {
  const row = await ownedUser(ctx, caller, id, 'change this user');
  const checkedHash = await checkGuarded(ctx, caller, row, input, address);
  const email = newEmail(row, input);
  const key = input.password === undefined ? undefined : keyMaterial(ctx, id);
  const changes = {
    ...(input.name !== undefined ? { name: input.name.trim() } : {}),
    ...(email !== undefined ? { email } : {}),
    ...(input.password !== undefined ? { password_hash: await hashPassword(input.password) } : {}),
    ...(key ? { api_key_digest: key.digest, api_key_ciphertext: key.ciphertext } : {}),
  };
  const before = toUserView(row, {});
  const view = await inTransaction(ctx.db, async (tx) => {
    const users = usersRepository(tx);
    let changed: boolean;
    try {
      changed = await users.updateProfile(id, changes, checkedHash);
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) throw emailTaken('is taken');
      throw error;
    }
    // The password changed since it was checked (a change that committed first): this one
    // is answered as if it had arrived after it, never written over it.
    if (!changed) throw checkedHash === undefined ? notFound(`User ${id}`) : wrongPassword();
    await announceCallerChange(tx, id);
    const after = toUserView((await users.findById(id))!, {});
    await emitChange(ctx.domainEvents, tx, {
      name: 'user.update',
      sellerId: id,
      actorId: caller.id,
      after,
      before,
    });
    return after;
  });
  ctx.callers?.invalidate(id);
  if (key) await ctx.callers?.propagated();
  return key ? { ...view, apiKey: key.apiKey } : view;
}
