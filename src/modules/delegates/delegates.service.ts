/**
 * Delegates: users a seller lets act for it within roles. Managed by the seller, its
 * ROLE_SELLER_ADMIN delegates and admins. Adding an existing delegate replaces its roles.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import type { UsersFacade } from '../users/index.js';
import { delegateList } from './delegates.list.js';
import { type DelegateView, toDelegateView } from './delegates.schemas.js';
import { delegatesRepository } from './delegates.repository.js';

export interface NewDelegate {
  email?: string;
  user?: { id: string };
  roles: string[];
}

export function delegatesService({ db, users }: { db: Db; users: UsersFacade }) {
  const repo = delegatesRepository(db);

  /** The seller, if it exists and the caller may manage its delegates. */
  async function managedSeller(caller: Caller, sellerId: string): Promise<void> {
    if (!(await users.isSeller(db, sellerId))) throw notFound(`Seller ${sellerId}`);
    accessOf(caller).require('delegates', sellerId, `the delegates of seller ${sellerId}`);
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
        ? await users.findByEmail(db, input.email)
        : await users.find(db, input.user!.id);
      if (!user)
        throw notFound(input.email ? `A user with email ${input.email}` : `User ${input.user!.id}`);
      if (user.id === sellerId) {
        throw new DomainError('validation_failed', 'A seller cannot be its own delegate.', {
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

    async list(caller: Caller, sellerId: string, query: Record<string, unknown>) {
      await managedSeller(caller, sellerId);
      return runList(
        delegateList,
        {
          path: `/api/users/${sellerId}/delegates`,
          query,
          scope: { anyOf: [{ field: 'seller', in: [sellerId] }] },
        },
        repo.listSource(),
        (rows) => rows.map(toDelegateView),
      );
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
