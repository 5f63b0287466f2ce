/**
 * Delegates: users a seller lets act for it within roles. Managed by the seller, its
 * ROLE_SELLER_ADMIN delegates and admins. Adding an existing delegate replaces its roles.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { ApiError, invalid, notFound } from '../../http/errors.js';
import { accessFor } from '../access/access.js';
import type { Caller } from '../users/caller.js';
import { usersRepository } from '../users/users.repository.js';
import { toDelegateView, type DelegateView } from './delegates.mapper.js';
import { delegatesRepository } from './delegates.repository.js';

export interface NewDelegate {
  email?: string;
  user?: { id: string };
  roles: string[];
}

export function delegatesService({ db }: { db: Db }) {
  const repo = delegatesRepository(db);
  const users = usersRepository(db);

  /** The seller, if it exists and the caller may manage its delegates. */
  async function managedSeller(caller: Caller, sellerId: string): Promise<void> {
    const seller = await users.findById(sellerId);
    if (!seller || !seller.roles.includes('ROLE_SELLER')) throw notFound(`Seller ${sellerId}`);
    await accessFor(db, caller).require(
      'delegates',
      sellerId,
      `the delegates of seller ${sellerId}`,
    );
  }

  return {
    async add(
      caller: Caller,
      sellerId: string,
      input: NewDelegate,
    ): Promise<{ created: boolean; delegate: DelegateView }> {
      if ((input.email === undefined) === (input.user === undefined)) {
        throw invalid('body', 'email', 'give exactly one of email or user');
      }
      await managedSeller(caller, sellerId);
      const user = input.email
        ? await users.findByEmail(input.email)
        : await users.findById(input.user!.id);
      if (!user)
        throw notFound(input.email ? `A user with email ${input.email}` : `User ${input.user!.id}`);
      if (user.id === sellerId) {
        throw new ApiError('validation_failed', 'A seller cannot be its own delegate.', {
          errors: [
            { in: 'body', name: input.email ? 'email' : 'user.id', detail: 'is the seller itself' },
          ],
        });
      }
      const created = await repo.upsert({
        id: newId(),
        seller_id: sellerId,
        user_id: user.id,
        roles: input.roles,
      });
      const row = await repo.findByUser(sellerId, user.id);
      return { created, delegate: toDelegateView(row!) };
    },

    async list(
      caller: Caller,
      sellerId: string,
    ): Promise<{ data: DelegateView[]; paging: { next: null } }> {
      await managedSeller(caller, sellerId);
      return {
        data: (await repo.listBySeller(sellerId)).map(toDelegateView),
        paging: { next: null },
      };
    },

    async get(caller: Caller, sellerId: string, id: string): Promise<DelegateView> {
      const row = await repo.find(sellerId, id);
      // The delegate itself may read its own delegation.
      if (row && row.user_id === caller.id) return toDelegateView(row);
      await managedSeller(caller, sellerId);
      if (!row) throw notFound(`Delegate ${id}`);
      return toDelegateView(row);
    },

    async remove(caller: Caller, sellerId: string, id: string): Promise<void> {
      await managedSeller(caller, sellerId);
      if (!(await repo.remove(sellerId, id))) throw notFound(`Delegate ${id}`);
    },
  };
}

export type DelegatesService = ReturnType<typeof delegatesService>;
