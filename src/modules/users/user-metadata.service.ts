/**
 * An account's metadata (`/api/users/{id}/metadata`): pairs merged in and keys deleted by
 * the user or an admin, each under the row's lock (concurrent merges add up) and within the
 * limits of metadata.rules.ts, each a `user.update` to the user's own hooks.
 */
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import { isSelfOrAdmin, type Caller } from '../../domain/caller.js';
import { DomainError, forbidden, invalidFields, notFound } from '../../domain/errors.js';
import { metadataLimitError, metadataPairErrors } from './metadata.rules.js';
import type { UsersContext } from './users.context.js';
import { usersRepository } from './users.repository.js';
import { toUserView } from './users.schemas.js';

type Metadata = Record<string, unknown>;

/** Writes new metadata and emits `user.update` to the user's own hooks. */
async function writeMetadata(
  ctx: UsersContext,
  tx: Tx,
  actorId: string,
  id: string,
  before: Metadata,
  after: Metadata,
): Promise<void> {
  const users = usersRepository(tx);
  await users.writeMetadata(id, after);
  const view = toUserView((await users.findById(id))!, { metadata: true });
  await ctx.domainEvents.emit(tx, {
    name: 'user.update',
    sellerId: id,
    actorId,
    object: view,
    audit: { metadata: { old: before, new: after } },
  });
}

/** The metadata after `edit`, written in one transaction holding the row's lock. */
async function editMetadata(
  ctx: UsersContext,
  caller: Caller,
  id: string,
  edit: (current: Metadata) => Metadata,
): Promise<Metadata> {
  if (!isSelfOrAdmin(caller, id)) throw forbidden('Only the user or an admin may do this.');
  return inTransaction(ctx.db, async (tx) => {
    const current = await usersRepository(tx).lockMetadata(id);
    if (!current) throw notFound(`User ${id}`);
    const next = edit(current);
    await writeMetadata(ctx, tx, caller.id, id, current, next);
    return next;
  });
}

export async function mergeMetadata(
  ctx: UsersContext,
  caller: Caller,
  id: string,
  pairs: Metadata,
): Promise<Metadata> {
  // 403 before 422: whoever may not touch the account hears nothing about its pairs.
  if (!isSelfOrAdmin(caller, id)) throw forbidden('Only the user or an admin may do this.');
  const errors = metadataPairErrors(pairs);
  if (errors.length > 0) throw invalidFields(errors, 'metadata_invalid');
  return editMetadata(ctx, caller, id, (current) => {
    const merged = { ...current, ...pairs };
    const tooBig = metadataLimitError(merged);
    if (tooBig) throw new DomainError('metadata_limit_exceeded', tooBig);
    return merged;
  });
}

export async function deleteMetadataKey(
  ctx: UsersContext,
  caller: Caller,
  id: string,
  key: string,
): Promise<Metadata> {
  return editMetadata(ctx, caller, id, (current) => {
    if (!Object.hasOwn(current, key)) {
      throw new DomainError('metadata_key_not_found', `The metadata has no key "${key}".`);
    }
    const { [key]: _removed, ...rest } = current;
    return rest;
  });
}
