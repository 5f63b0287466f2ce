/**
 * `expand=experience,seller,event,guides` (Xola's): references in a response replaced by
 * the objects they name, for single GETs and list pages alike. Which references each
 * object type offers, and where they sit, is declared here once (`EXPANSIONS`); each
 * relation is resolved by its module (`Expanders`) in one query for the whole page, never
 * one per row, and only with what the caller may see: a reference the caller may not read
 * stays `{id}`. A route opts in with `config: { expands: '<object type>' }`. Names of
 * relations the object already carries whole (`EMBEDDED`: an experience's schedules, a
 * guide's user) are accepted and change nothing, as Xola's own API does: integrations send
 * them. Any other name is a 400 that names the allowed ones.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/database.js';
import { PAGE_BYTES } from '../db/page-budget.js';
import type { Caller } from '../domain/caller.js';
import { QueryError } from '../query/errors.js';
import { nextAfterOf } from '../query/paging.js';
import { clip } from '../query/values.js';
import { ListQuery } from './schemas.js';
import { routeOf } from './route-of.js';

/** Where each object type holds the references it can expand (`[]` walks an array). */
export const EXPANSIONS = {
  event: { experience: 'experience', seller: 'seller', guides: 'guides[].guide' },
  order: { experience: 'items[].experience', event: 'items[].event', seller: 'seller' },
  experience: { seller: 'seller' },
  guide: { seller: 'seller' },
} as const satisfies Record<string, Record<string, string>>;

export type ExpandableObject = keyof typeof EXPANSIONS;

/** Relations each object type embeds already: `expand=` may name them, to no effect. */
export const EMBEDDED: Record<ExpandableObject, readonly string[]> = {
  event: ['quantity'],
  order: ['items', 'demographics', 'lineItems', 'guests'],
  experience: ['schedules', 'demographics', 'group', 'guide'],
  guide: ['user', 'schedules'],
};
export type Relation = 'experience' | 'seller' | 'event' | 'guides';

/** Views by id of the referenced objects the caller may see (one query for all ids). */
export type Expander = (
  db: Db,
  caller: Caller | null,
  ids: readonly string[],
) => Promise<Map<string, object>>;

export type Expanders = Partial<Record<Relation, Expander>>;

declare module 'fastify' {
  interface FastifyRequest {
    expand?: readonly Relation[];
  }
  interface FastifyContextConfig {
    /** The object type a GET route answers with (or lists): what `expand=` may name. */
    expands?: ExpandableObject;
  }
}

type Json = Record<string, unknown>;

/** The parsed, checked `expand` of a request (which it takes out of the query). */
export function readExpand(request: FastifyRequest): void {
  const query = request.query as Json | undefined;
  const raw = query?.expand;
  if (raw === undefined) return;
  delete query!.expand;
  const objectType = routeOf(request).config.expands;
  const offered = objectType ? Object.keys(EXPANSIONS[objectType]) : [];
  if (typeof raw !== 'string') {
    throw new QueryError('repeated_parameter', 'expand', 'Give expand once, as a comma list.');
  }
  const embedded = objectType ? EMBEDDED[objectType] : [];
  const names = [...new Set(raw.split(',').map((n) => n.trim()))].filter(
    (n) => !embedded.includes(n),
  );
  const unknown = names.find((n) => !offered.includes(n));
  if (unknown !== undefined) {
    throw new QueryError(
      'invalid_parameter',
      'expand',
      offered.length === 0
        ? 'This endpoint expands nothing.'
        : `Cannot expand "${clip(unknown)}" here; expandable: ${offered.join(', ')}.`,
    );
  }
  if (names.length > 0) request.expand = names as Relation[];
}

/** Every reference at `path` of `object`, with a way to replace it. */
function referencesAt(
  object: Json,
  path: string,
): { id: string; replace: (value: object) => void }[] {
  const [head, ...rest] = path.split('.');
  const array = head!.endsWith('[]');
  const key = array ? head!.slice(0, -2) : head!;
  const value = object[key];
  if (rest.length === 0) {
    const ref = value as { id?: unknown } | null | undefined;
    return ref && typeof ref.id === 'string'
      ? [{ id: ref.id, replace: (expanded) => (object[key] = expanded) }]
      : [];
  }
  if (array) {
    return Array.isArray(value)
      ? value.flatMap((entry) => referencesAt(entry as Json, rest.join('.')))
      : [];
  }
  return value && typeof value === 'object' ? referencesAt(value as Json, rest.join('.')) : [];
}

/** The top-level objects of a response: the page's data, or the object itself. */
const objectsOf = (payload: Json): Json[] =>
  Array.isArray(payload.data) ? (payload.data as Json[]) : [payload];

/**
 * preSerialization: the response with its references expanded (before the version
 * transforms, so expanded objects come in the caller's version too).
 */
export function expandHook(db: Db, expanders: Expanders) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.expand || reply.statusCode >= 300 || !payload || typeof payload !== 'object')
      return payload;
    const listed = (payload as Json).data;
    const nextAfter = Array.isArray(listed) ? nextAfterOf((payload as Json).paging) : undefined;
    const body = structuredClone(payload) as Json;
    const objects = objectsOf(body);
    // What expanding adds to each object, for a page (each view measured once).
    const added = objects.map(() => 0);
    for (const relation of request.expand) {
      const found = objects.map((object) => {
        const paths = EXPANSIONS[object.object as ExpandableObject] as
          Record<string, string> | undefined;
        const path = paths?.[relation];
        return path ? referencesAt(object, path) : [];
      });
      const ids = new Set(found.flatMap((refs) => refs.map((f) => f.id)));
      if (ids.size === 0) continue;
      const views = await expanders[relation]!(db, request.caller, [...ids]);
      const sizes = new Map<string, number>();
      found.forEach((refs, i) => {
        for (const reference of refs) {
          const view = views.get(reference.id);
          if (!view) continue;
          reference.replace(view);
          if (!nextAfter) continue;
          let size = sizes.get(reference.id);
          if (size === undefined) sizes.set(reference.id, (size = jsonBytes(view)));
          added[i]! += size;
        }
      });
    }
    if (nextAfter) withinBudget(body, listed as unknown[], added, nextAfter);
    // The next page expanded too: `expand` was taken out of the query the link repeats.
    const paging = body.paging as Json | undefined;
    if (typeof paging?.next === 'string')
      paging.next = `${paging.next}&expand=${request.expand.join(',')}`;
    // The route's schema describes references as {id}: expanded objects go out as built.
    reply.serializer(JSON.stringify);
    return body;
  };
}

/**
 * A page ended where its expanded objects reach the page's byte budget (db/page-budget.ts;
 * its first object stays), `paging.next` going on from there. The budget the page query
 * kept counted the objects alone: an order names an experience on each of its 20 items,
 * and expanded each is the whole experience, schedules and all, so a page of 20 orders of
 * 300 KB was 6 MB expanded, and one of 100 could be tens of MB.
 */
function withinBudget(
  body: Json,
  listed: unknown[],
  added: number[],
  nextAfter: (count: number) => string | null,
): void {
  let bytes = 0;
  let kept = 0;
  for (const [i, object] of listed.entries()) {
    const size = jsonBytes(object) + added[i]!;
    if (kept > 0 && bytes + size > PAGE_BYTES) break;
    bytes += size;
    kept += 1;
  }
  if (kept === listed.length) return;
  body.data = (body.data as unknown[]).slice(0, kept);
  body.paging = { ...(body.paging as Json), next: nextAfter(kept) };
}

/**
 * The bytes `value` takes as JSON in UTF-8, as the page query measures (`octet_length`):
 * counting UTF-16 units let a page of CJK text reach three times the budget.
 */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The `expand` query parameter of a route whose objects are of `type` (for OpenAPI). */
export const expandParameter = (type: ExpandableObject) =>
  Type.Optional(
    Type.String({
      maxLength: 100,
      description: `Replace references by the objects they name (those the caller may see), comma-separated: ${Object.keys(EXPANSIONS[type]).join(', ')}; also accepted, as already embedded: ${EMBEDDED[type].join(', ')}`,
    }),
  );

/** A single GET's query: `expand` only. */
export const ExpandQuery = (type: ExpandableObject) =>
  Type.Object({ expand: expandParameter(type) });

/** A list's query (the query language) with `expand`. */
export const listQueryExpanding = (type: ExpandableObject) =>
  Type.Object(
    { ...ListQuery.properties, expand: expandParameter(type) },
    { additionalProperties: true },
  );
