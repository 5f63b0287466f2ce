/**
 * An account's API key (`/api/users/{id}/apikey`): read back by the user or an admin, and
 * rotated, the old key refused on every instance before the answer goes out.
 */
import { inTransaction } from '../../db/unit-of-work.js';
import type { Caller } from '../../domain/caller.js';
import { forbidden, notFound } from '../../domain/errors.js';
import { announceCallerChange } from './caller-cache.js';
import { keyMaterial, ownedUser, type UsersContext } from './users.context.js';
import { usersRepository } from './users.repository.js';

export async function getApiKey(
  ctx: UsersContext,
  caller: Caller,
  id: string,
): Promise<{ apiKey: string }> {
  const row = await ownedUser(ctx, caller, id, 'read its API key');
  return { apiKey: ctx.cipher.decrypt(row.api_key_ciphertext, row.id) };
}

/**
 * Issues a new key; the old one is refused from the next request on. Only in place of the
 * key read at the start: a rotation (or password change) that committed meanwhile wins, and
 * this one is refused (403) instead of answering a key the other had already replaced.
 */
export async function rotateApiKey(
  ctx: UsersContext,
  caller: Caller,
  id: string,
): Promise<{ apiKey: string }> {
  const row = await ownedUser(ctx, caller, id, 'rotate its API key');
  const { apiKey, digest, ciphertext } = keyMaterial(ctx, id);
  await inTransaction(ctx.db, async (tx) => {
    const users = usersRepository(tx);
    if (!(await users.replaceApiKey(id, digest, ciphertext, row.api_key_digest))) {
      if (!(await users.findById(id))) throw notFound(`User ${id}`);
      throw forbidden(
        'The API key was replaced while this rotation ran (another rotation or a password change); nothing was changed.',
      );
    }
    await announceCallerChange(tx, id);
  });
  // This instance forgets the old key now; the answer waits until no other instance's
  // cache can still serve it (caller-cache.ts: bounded staleness).
  ctx.callers?.invalidate(id);
  await ctx.callers?.propagated();
  return { apiKey };
}
