/** What other modules may ask of delegations: whether a user is a delegate of a seller. */
import type { Executor } from '../../db/unit-of-work.js';
import { delegatesRepository } from './delegates.repository.js';

export const delegatesFacade = {
  isDelegate: async (db: Executor, sellerId: string, userId: string): Promise<boolean> =>
    (await delegatesRepository(db).findByUser(sellerId, userId)) !== undefined,
};

export type DelegatesFacade = typeof delegatesFacade;
