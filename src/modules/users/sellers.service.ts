/**
 * Sellers as the callers see them: `GET /api/sellers` lists the sellers the caller may act
 * for (itself when it is one, those it is a delegate of; every one for admins) with its
 * roles at each; `GET /api/sellers/{id}` shows any seller's public profile, and its email
 * to its staff.
 */
import type { Db } from '../../db/database.js';
import { isAdmin, type Caller } from '../../domain/caller.js';
import { notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import type { Scope } from '../../query/types.js';
import { sellerList } from './sellers.list.js';
import type { SellerView } from './sellers.schemas.js';
import { usersRepository } from './users.repository.js';

/** The caller's roles at a seller: ROLE_SELLER for itself, else its delegate roles. */
function rolesAt(caller: Caller | null, sellerId: string): string[] {
  if (!caller) return [];
  if (caller.id === sellerId) return ['ROLE_SELLER'];
  return [...(caller.delegations.get(sellerId) ?? [])];
}

export function sellersService({ db }: { db: Db }) {
  const repo = usersRepository(db);

  const view = (
    caller: Caller | null,
    row: { id: string; name: string; email: string },
  ): SellerView => {
    const roles = rolesAt(caller, row.id);
    const staff = roles.length > 0 || (caller !== null && isAdmin(caller));
    return {
      object: 'seller',
      id: row.id,
      name: row.name,
      ...(staff ? { email: row.email } : {}),
      roles,
    };
  };

  /** The sellers a caller may act for: itself if a seller, those it is a delegate of. */
  const scopeOf = (caller: Caller): Scope => {
    if (isAdmin(caller)) return 'all';
    const own = caller.roles.includes('ROLE_SELLER') ? [caller.id] : [];
    return { anyOf: [{ field: 'id', in: [...own, ...caller.delegations.keys()] }] };
  };

  return {
    list: (caller: Caller, query: Record<string, unknown>) =>
      runList(
        sellerList,
        { path: '/api/sellers', query, scope: scopeOf(caller) },
        repo.sellersListSource(),
        (rows) => rows.map((row) => view(caller, row)),
      ),

    async get(caller: Caller | null, id: string): Promise<SellerView> {
      const [row] = await repo.findSellers([id]);
      if (!row) throw notFound(`Seller ${id}`);
      return view(caller, row);
    },

    /** Public profiles of sellers by id, as `GET /api/sellers/{id}` shows them (`expand`). */
    async views(caller: Caller | null, ids: readonly string[]): Promise<Map<string, SellerView>> {
      const rows = await repo.findSellers(ids);
      return new Map(rows.map((row) => [row.id, view(caller, row)]));
    },
  };
}

export type SellersService = ReturnType<typeof sellersService>;
