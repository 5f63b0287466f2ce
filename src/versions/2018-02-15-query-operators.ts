/**
 * v2018-02-15 Query Operators. Before it, order lists took a comma list without an operator
 * as a range (dates) or a set (status), and the item fields had no `items.` prefix.
 */
import type { ApiVersion, RequestParts } from './types.js';

const ITEM_FIELDS = new Set(['arrival', 'event', 'status', 'experience']);
const RANGES = new Set(['items.arrival', 'createdAt', 'updatedAt']);
const SETS = new Set(['items.status']);
const KEY = /^([A-Za-z][\w.]*)(\[[^\]]*\])?$/;

/** Rewrites one order-list query from the older form to the current one. */
export function rewriteOrderQuery(query: Record<string, unknown>): Record<string, unknown> {
  const rewritten: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const match = KEY.exec(key);
    if (!match) {
      rewritten[key] = value;
      continue;
    }
    const field = ITEM_FIELDS.has(match[1]!) ? `items.${match[1]}` : match[1]!;
    let operator = match[2] ?? '';
    if (operator === '' && typeof value === 'string' && value.includes(',')) {
      if (RANGES.has(field)) operator = '[range]';
      else if (SETS.has(field)) operator = '[in]';
    }
    rewritten[`${field}${operator}`] = value;
  }
  return rewritten;
}

export const queryOperators: ApiVersion = {
  date: '2018-02-15',
  title: 'Query Operators',
  description: [
    'List filters take operators: `field[operator]=value` (equals, notEqual, gt, gte, lt, lte, range, in, nin, startsWith, endsWith, contains, doesNotContain, exists).',
    'For callers before this version, on `GET /api/orders`: a comma list without an operator means `range` for `arrival`, `createdAt` and `updatedAt` and `in` for `status`;',
    'and `arrival`, `event`, `status` and `experience` mean the item fields `items.arrival`, `items.event`, `items.status` and `items.experience`',
    '(so `arrival=2019-11-08,2019-11-10` is `items.arrival[range]=2019-11-08,2019-11-10`).',
  ].join(' '),
  requests: [
    {
      method: 'GET',
      url: '/api/orders',
      rewrite: (request: RequestParts) => {
        request.query = rewriteOrderQuery(request.query);
      },
    },
  ],
};
