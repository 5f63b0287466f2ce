/**
 * v2018-02-15 Query Operators. Before it, order lists took a comma list without an operator
 * as a range (dates) or a set (status), and the item fields had no `items.` prefix. The
 * rewrite of such queries lives with the orders (modules/orders/orders.versions.ts).
 */
import type { ApiVersion } from './types.js';

export const queryOperators: ApiVersion = {
  date: '2018-02-15',
  title: 'Query Operators',
  description: [
    'List filters take operators: `field[operator]=value` (equals, notEqual, gt, gte, lt, lte, range, in, nin, startsWith, endsWith, contains, doesNotContain, exists).',
    'For callers before this version, on `GET /api/orders`: a comma list without an operator means `range` for `arrival`, `createdAt` and `updatedAt` and `in` for `status`;',
    'and `arrival`, `event`, `status` and `experience` mean the item fields `items.arrival`, `items.event`, `items.status` and `items.experience`',
    '(so `arrival=2019-11-08,2019-11-10` is `items.arrival[range]=2019-11-08,2019-11-10`).',
    'Errors name such parameters as sent (`arrival`, not `items.arrival[range]`).',
    'Two parameters that so become the same one (`arrival` and `items.arrival`, `createdAt=a,b` and `createdAt[range]`) are that parameter given twice: 400 `repeated_parameter`, naming the second as sent.',
  ].join(' '),
};
