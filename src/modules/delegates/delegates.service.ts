/**
 * Delegates: users a seller lets act for it within roles. Managed by the seller, its
 * ROLE_SELLER_ADMIN delegates and admins. Adding an existing delegate replaces its roles.
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction, type Executor } from '../../db/unit-of-work.js';
import type { Recorder } from '../idempotency/index.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import type { UsersFacade } from '../users/index.js';
import { delegatesFacade } from './delegates.facade.js';
import { delegateList } from './delegates.list.js';
import { type DelegateView, toDelegateView } from './delegates.schemas.js';
import { delegatesRepository } from './delegates.repository.js';

export interface NewDelegate {
  email?: string;
  user?: { id: string };
  roles: string[];
}

export interface DelegatesServiceDeps {
  db: Db;
  users: UsersFacade;
  /** Whether a user booked with a seller (the orders module's; app.ts passes it in). */
  hasBookedWith: (db: Executor, userId: string, sellerId: string) => Promise<boolean>;
}

export function delegatesService({ db, users, hasBookedWith }: DelegatesServiceDeps) {
  const repo = delegatesRepository(db);

  /** The seller, if it exists and the caller may manage its delegates. */
  async function managedSeller(caller: Caller, sellerId: string): Promise<void> {
    if (!(await users.isSeller(db, sellerId))) throw notFound(`Seller ${sellerId}`);
    accessOf(caller).require('delegates', sellerId, `the delegates of seller ${sellerId}`);
  }

  return {
    /**
     * By email: an invitation to that address, answered the same whether or not an account
     * has it. By user id: only a user the seller already knows (one that booked with it, or
     * its delegate by id); anyone else is the same 404 as an unknown id.
     */
    async add(
      caller: Caller,
      sellerId: string,
      input: NewDelegate,
      record?: Recorder,
    ): Promise<{ status: 200 | 201; body: DelegateView }> {
      if ((input.email === undefined) === (input.user === undefined)) {
        throw invalid('body', 'email', 'give exactly one of email or user');
      }
      await managedSeller(caller, sellerId);
      const ownDelegate = () =>
        new DomainError('validation_failed', 'A seller cannot be its own delegate.', {
          errors: [
            { in: 'body', name: input.email ? 'email' : 'user.id', detail: 'is the seller itself' },
          ],
        });
      let row: { user_id: string | null; email: string | null };
      if (input.email !== undefined) {
        const email = input.email.trim().toLowerCase();
        const account = await users.findByEmail(db, email);
        if (account?.id === sellerId) throw ownDelegate();
        row = { user_id: account?.id ?? null, email };
      } else {
        const userId = input.user!.id;
        if (userId === sellerId) throw ownDelegate();
        const known =
          (await delegatesFacade.isKnownDelegate(db, sellerId, userId)) ||
          (await hasBookedWith(db, userId, sellerId));
        if (!known) throw notFound(`User ${userId}`);
        row = { user_id: userId, email: null };
      }
      return inTransaction(db, async (tx) => {
        const delegates = delegatesRepository(tx);
        const { id, created } = await delegates.upsert({
          id: newId(),
          seller_id: sellerId,
          roles: input.roles,
          ...row,
        });
        const outcome = {
          status: created ? (201 as const) : (200 as const),
          body: toDelegateView((await delegates.find(sellerId, id))!),
        };
        await record?.(tx, outcome);
        return outcome;
      });
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

    /** The invited user accepts the delegation: the seller may see who it is from now on. */
    async accept(caller: Caller, sellerId: string, id: string): Promise<DelegateView> {
      if (!(await repo.accept(sellerId, id, caller.id))) throw notFound(`Delegate ${id}`);
      return toDelegateView((await repo.find(sellerId, id))!);
    },

    async remove(caller: Caller, sellerId: string, id: string): Promise<void> {
      await managedSeller(caller, sellerId);
      if (!(await repo.remove(sellerId, id))) throw notFound(`Delegate ${id}`);
    },
  };
}

export type DelegatesService = ReturnType<typeof delegatesService>;
