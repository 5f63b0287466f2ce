/** TEMPORARY (kept until the property/EXPLAIN tests move to list-scopes.ts):
 * What each caller may see in the lists, as query-language scopes ANDed to every list
 * query: admins see everything, sellers their own data, customers the orders they booked,
 * and everyone the visible experiences.
 */
import type { Scope } from '../../query/types.js';
import { isAdmin, type Caller } from '../users/caller.js';

export const scopes = {
  orders(caller: Caller): Scope {
    if (isAdmin(caller)) return 'all';
    return {
      anyOf: [
        { field: 'seller', in: [caller.id] },
        { field: 'customer', in: [caller.id] },
      ],
    };
  },

  experiences(caller: Caller | null): Scope {
    if (caller && isAdmin(caller)) return 'all';
    return {
      anyOf: [
        { field: 'visible', in: [true] },
        ...(caller ? [{ field: 'seller', in: [caller.id] }] : []),
      ],
    };
  },

  events(caller: Caller): Scope {
    if (isAdmin(caller)) return 'all';
    return { anyOf: [{ field: 'seller', in: [caller.id] }] };
  },
};
