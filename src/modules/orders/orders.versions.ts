/**
 * What orders look like to callers on older versions (src/versions/):
 * - before v2017-09-28 Multi-item Orders, a booking named its one experience at the top of
 *   the body, an order showed its (first) item's fields at the top, and a change of the
 *   order named its item's fields there too;
 * - before v2018-02-15 Query Operators, a comma list without an operator was a range
 *   (dates) or a set (status), and the item fields had no `items.` prefix.
 * Their requests are rewritten into today's form (recording what they renamed, so errors
 * and `X-Ignored-Fields` name what the client sent), and their orders get the older fields.
 */
import { isId } from '../../db/ids.js';
import { accessOf } from '../../domain/access.js';
import { DomainError } from '../../domain/errors.js';
import { QueryError } from '../../query/errors.js';
import { clip } from '../../query/values.js';
import { MULTI_ITEM_ORDERS, QUERY_OPERATORS } from '../../versions/index.js';
import { problemNamesAsSent, type SentNames } from '../../versions/sent-names.js';
import type { ApiObject } from '../../versions/transforms.js';
import type { RequestParts, RewriteContext, VersionChanges } from '../../versions/types.js';
import { holdsSeats, type OrderStatus } from './item-status.js';
import { maySee } from './orders.context.js';
import { ordersRepository } from './orders.repository.js';

/** A single-item order's fields at the top of the body: they are its one item's. */
const ITEM_AT_TOP = [
  'experience',
  'arrival',
  'arrivalTime',
  'quantity',
  'demographics',
  'lineItems',
  'status',
];

const objectBody = (body: unknown): Record<string, unknown> | undefined =>
  typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;

/**
 * Moves `fields` of the body into one item entry (`experience` as a bare id read as
 * `{id}`, as Xola's browser SDK sends it) and records each as sent at the top.
 */
function moveIntoItem(
  body: Record<string, unknown>,
  fields: readonly string[],
  names: SentNames,
): { rest: Record<string, unknown>; item: Record<string, unknown> } {
  const rest = { ...body };
  const item: Record<string, unknown> = {};
  for (const field of fields) {
    item[field] = rest[field];
    delete rest[field];
    names.rename('body', `items.0.${field}`, field);
  }
  if (typeof item.experience === 'string') {
    item.experience = { id: item.experience };
    names.rename('body', 'items.0.experience.id', 'experience');
  }
  return { rest, item };
}

/** Rewrites a single-item booking body (`experience` at the top, no `items`) in place. */
export function rewriteSingleItemBody(request: RequestParts, context: RewriteContext): void {
  const body = objectBody(request.body);
  if (!body || body.items !== undefined || body.experience === undefined) return;
  const fields = ITEM_AT_TOP.filter((field) => Object.hasOwn(body, field));
  const { rest, item } = moveIntoItem(body, fields, context.sentNames);
  request.body = { ...rest, items: [item] };
}

/** What an order's `status` says of it (its items' codes are numbers): not an item field. */
const ORDER_STATUSES: readonly unknown[] = ['confirmed', 'canceled'] satisfies OrderStatus[];

/**
 * The live items (holding seats) of the order a change names, when the caller may see it;
 * none for an order it may not see or that does not exist (the route answers 404 for it),
 * nor for a canceled one (409).
 */
async function liveItemsOf(orderId: unknown, context: RewriteContext): Promise<string[]> {
  if (!isId(orderId) || !context.caller) return [];
  const orders = ordersRepository(context.db);
  const order = await orders.findById(orderId);
  if (!order || !maySee(accessOf(context.caller), order)) return [];
  const items = (await orders.itemsOf([orderId])).get(orderId) ?? [];
  return items.filter((i) => holdsSeats(i.status)).map((i) => i.id);
}

/**
 * A change (`PUT`/`PATCH /api/orders/{id}`) with item fields at the top of the body, as the
 * single-item order showed them: they change the order's one live item, `items: [{id, ...}]`
 * (the other fields stay the order's). An order with several live items is 400: which item
 * is meant, only the multi-item form (`items`, also taken on these versions) can say. An
 * order's own status word (`"status": "confirmed"`, as the order shows it) is no item field:
 * left at the top, ignored as before. A body with `items` is taken as it is.
 */
async function rewriteItemChange(request: RequestParts, context: RewriteContext): Promise<void> {
  const body = objectBody(request.body);
  if (!body || body.items !== undefined) return;
  const fields = ITEM_AT_TOP.filter(
    (field) =>
      Object.hasOwn(body, field) && !(field === 'status' && ORDER_STATUSES.includes(body.status)),
  );
  if (fields.length === 0) return;
  const live = await liveItemsOf(request.params.id, context);
  if (live.length > 1) {
    const detail = `is a field of one item, and this order has ${live.length} items`;
    const entry = ['id', ...fields].map((f) => `"${f}"`).join(', ');
    throw new DomainError(
      'validation_failed',
      `This order has ${live.length} items: name the one to change in \`items\` ([{${entry}}], listing every item the order keeps by id), the multi-item form of version ${MULTI_ITEM_ORDERS} and later.`,
      { errors: fields.map((name) => ({ in: 'body' as const, name, detail })) },
    );
  }
  const { rest, item } = moveIntoItem(body, fields, context.sentNames);
  // No live item: the order is unknown, not the caller's, or canceled; the route says which.
  request.body = { ...rest, items: [live.length === 1 ? { id: live[0], ...item } : item] };
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
export function rewriteOrderQuery(
  query: Record<string, unknown>,
  names?: SentNames,
): Record<string, unknown> {
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
  for (const [name, key] of sentAs) names?.rename('query', name, key);
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
      rewrite: (request: RequestParts, context: RewriteContext) => {
        request.query = rewriteOrderQuery(request.query, context.sentNames);
      },
    },
    ...['PUT', 'PATCH'].map((method) => ({
      version: MULTI_ITEM_ORDERS,
      method,
      url: '/api/orders/:id',
      rewrite: rewriteItemChange,
    })),
  ],
  objects: [
    { version: MULTI_ITEM_ORDERS, object: 'order', down: withFirstItemAtTop },
    { version: MULTI_ITEM_ORDERS, object: 'order_quote', down: withFirstItemAtTop },
    // Errors about a rewritten request name the fields and parameters the client sent.
    { version: MULTI_ITEM_ORDERS, object: 'problem', down: problemNamesAsSent('body') },
    { version: QUERY_OPERATORS, object: 'problem', down: problemNamesAsSent('query') },
  ],
};
