/**
 * What other modules may ask of accounts: whether one exists, its name and email, whether
 * it is a seller. Each call takes the executor it runs on (the pool, or the caller's
 * transaction).
 */
import type { Executor } from '../../db/unit-of-work.js';
import type { SealedStore } from '../../security/secret-rotation.js';
import { usersRepository, type UserRow } from './users.repository.js';

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly roles: readonly string[];
}

const account = (row: UserRow | undefined): Account | undefined =>
  row && { id: row.id, name: row.name, email: row.email, roles: row.roles };

export const usersFacade = {
  find: async (db: Executor, id: string): Promise<Account | undefined> =>
    account(await usersRepository(db).findById(id)),

  findByEmail: async (db: Executor, email: string): Promise<Account | undefined> =>
    account(await usersRepository(db).findByEmail(email)),

  /** The sealed API keys, for `cli rotate-secret`. */
  sealedKeys: (db: Executor): SealedStore => ({
    name: 'API keys',
    page: (afterId, limit) => usersRepository(db).sealedKeys(afterId, limit),
    boundTo: (id) => id,
    write: (id, sealed) => usersRepository(db).setSealedKey(id, sealed),
  }),

  /** A seller: an account with ROLE_SELLER (what experiences, guides and delegates hang on). */
  isSeller: async (db: Executor, id: string): Promise<boolean> =>
    (await usersRepository(db).findById(id))?.roles.includes('ROLE_SELLER') ?? false,
};

export type UsersFacade = typeof usersFacade;
