/**
 * What each caller may see in the lists, as query-language scopes ANDed to every list
 * query (built from the same decisions as access.ts): admins see everything; sellers and
 * their delegates the seller's data their roles cover; customers the orders they booked;
 * everyone the visible experiences.
 */
import type { Scope } from '../../query/types.js';
import type { Access } from './access.js';

type Alternative = { field: string; in: readonly string[] | readonly boolean[] };

const anyOf = (alternatives: Alternative[]): Scope => ({
  anyOf: alternatives.filter((a) => a.in.length > 0),
});

export const listScopes = {
  async orders(access: Access): Promise<Scope> {
    const sellers = await access.sellersFor('orders');
    if (sellers === 'all') return 'all';
    return anyOf([
      { field: 'seller', in: sellers },
      { field: 'customer', in: [access.caller.id] },
    ]);
  },

  async experiences(access: Access | null): Promise<Scope> {
    // Hidden experiences are seen by all the seller's staff (they book and staff them).
    const sellers = access ? await access.sellersFor('events') : [];
    if (sellers === 'all') return 'all';
    return anyOf([
      { field: 'visible', in: [true] },
      { field: 'seller', in: sellers },
    ]);
  },

  async events(access: Access): Promise<Scope> {
    const sellers = await access.sellersFor('events');
    if (sellers === 'all') return 'all';
    return anyOf([
      { field: 'seller', in: sellers },
      { field: 'guides', in: await access.guideIds() },
    ]);
  },
};
