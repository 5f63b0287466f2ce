/**
 * What orders look like to callers on older versions (src/versions/):
 * - before v2017-09-28 Multi-item Orders, a booking named its one experience at the top of
 *   the body, and an order showed its (first) item's fields at the top;
 * - before v2018-02-15 Query Operators, a comma list without an operator was a range
 *   (dates) or a set (status), and the item fields had no `items.` prefix.
 * Their requests are rewritten into today's form, and their orders get the older fields.
 */
import { QueryError } from '../../query/errors.js';
import { clip } from '../../query/values.js';
import { MULTI_ITEM_ORDERS, QUERY_OPERATORS } from '../../versions/index.js';
import type { ApiObject } from '../../versions/transforms.js';
import type { RequestParts, VersionChanges } from '../../versions/types.js';

/** A single-item booking's fields at the top of the body: they become its one item. */
const ITEM_AT_TOP = ['arrival', 'arrivalTime', 'quantity', 'demographics', 'lineItems', 'status'];

/** Rewrites a single-item booking body (`experience` at the top, no `items`) in place. */
export function rewriteSingleItemBody(request: RequestParts): void {
  const body = request.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  if (body.items !== undefined || body.experience === undefined) return;
  const { experience, ...rest } = body;
  const item: Record<string, unknown> = {
    experience: typeof experience === 'string' ? { id: experience } : experience,
  };
  for (const field of ITEM_AT_TOP) {
    if (field in rest) {
      item[field] = rest[field];
      delete rest[field];
    }
  }
  request.body = { ...rest, items: [item] };
}

/** The first item's fields at the top of an order or a quote, as single-item orders had. */
const FIELDS_OF_FIRST_ITEM = [
  'experience',
  'event',
  'arrivalTime',
  'arrivalDatetime',
  'quantity',
  'demographics',
  'lineItems',
] as const;

function withFirstItemAtTop(objects: ApiObject[]): ApiObject[] {
  return objects.map((object) => {
    // An order the API built; anything else shaped like one is left as it is (never a 500).
    const first: unknown = Array.isArray(object.items) ? object.items[0] : undefined;
    if (typeof first !== 'object' || first === null) return object;
    const top: Record<string, unknown> = {};
    const item = first as Record<string, unknown>;
    for (const field of FIELDS_OF_FIRST_ITEM) if (field in item) top[field] = item[field];
    return { ...object, ...top, arrival: object.arrival ?? item.arrival };
  });
}

const ITEM_FIELDS = new Set(['arrival', 'event', 'status', 'experience']);
const RANGES = new Set(['items.arrival', 'createdAt', 'updatedAt']);
const SETS = new Set(['items.status']);
const KEY = /^([A-Za-z][\w.]*)(\[[^\]]*\])?$/;

/**
 * Rewrites one order-list query from the older form to the current one. Two parameters that
 * become the same one (`arrival` and `items.arrival`, `createdAt=a,b` and `createdAt[range]`)
 * are that parameter given twice: 400 repeated_parameter naming the second as the client
 * wrote it, as the current language answers, never one of them dropped. Parameters that
 * become different filters on one field (`arrival=a,b` and `items.arrival[gte]`) both apply.
 */
export function rewriteOrderQuery(query: Record<string, unknown>): Record<string, unknown> {
  const rewritten: Record<string, unknown> = {};
  const sentAs = new Map<string, string>();
  for (const [key, value] of Object.entries(query)) {
    const match = KEY.exec(key);
    let name = key;
    if (match) {
      const field = ITEM_FIELDS.has(match[1]!) ? `items.${match[1]}` : match[1]!;
      let operator = match[2] ?? '';
      if (operator === '' && typeof value === 'string' && value.includes(',')) {
        if (RANGES.has(field)) operator = '[range]';
        else if (SETS.has(field)) operator = '[in]';
      }
      name = `${field}${operator}`;
    }
    const first = sentAs.get(name);
    if (first !== undefined) {
      throw new QueryError(
        'repeated_parameter',
        clip(key),
        `${clip(first)} and ${clip(key)} both mean ${clip(name)} on this version (before ${QUERY_OPERATORS}); give one of them.`,
      );
    }
    sentAs.set(name, key);
    rewritten[name] = value;
  }
  return rewritten;
}

export const orderVersionChanges: VersionChanges = {
  requests: [
    ...['/api/orders', '/api/orders/prepare'].map((url) => ({
      version: MULTI_ITEM_ORDERS,
      method: 'POST',
      url,
      rewrite: rewriteSingleItemBody,
    })),
    {
      version: QUERY_OPERATORS,
      method: 'GET',
      url: '/api/orders',
      rewrite: (request: RequestParts) => {
        request.query = rewriteOrderQuery(request.query);
      },
    },
  ],
  objects: [
    { version: MULTI_ITEM_ORDERS, object: 'order', down: withFirstItemAtTop },
    { version: MULTI_ITEM_ORDERS, object: 'order_quote', down: withFirstItemAtTop },
  ],
};
