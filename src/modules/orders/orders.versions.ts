/**
 * What order lists look like to callers before v2018-02-15 Query Operators (src/versions/):
 * a comma list without an operator was a range (dates) or a set (status), and the item
 * fields had no `items.` prefix. Their queries are rewritten into today's form.
 */
import { QUERY_OPERATORS } from '../../versions/index.js';
import type { RequestParts, VersionChanges } from '../../versions/types.js';

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

export const orderVersionChanges: VersionChanges = {
  requests: [
    {
      version: QUERY_OPERATORS,
      method: 'GET',
      url: '/api/orders',
      rewrite: (request: RequestParts) => {
        request.query = rewriteOrderQuery(request.query);
      },
    },
  ],
};
