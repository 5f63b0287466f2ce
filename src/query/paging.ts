/**
 * Pages of a list: trimming the look-ahead row, and `paging.next` as a relative URL that
 * repeats the request's filters. In the default order (`-id`) the next page is a keyset
 * (`id[lt]=<last id>`), so deep pages cost what the first costs; otherwise `skip` advances.
 */
import type { QueryPlan } from './types.js';

export interface Paging {
  next: string | null;
  total?: number;
}

/** Where a page's `nextAfter` is kept: not a field, so no serializer nor clone sees it. */
const NEXT_AFTER = Symbol('nextAfter');

/**
 * `paging` able to say where the next page starts should a later stage end the page after
 * its first `count` objects: `expand=` (http/expand.ts), whose objects may weigh many times
 * what the page's byte budget counted.
 */
export function cuttable(paging: Paging, nextAfter: (count: number) => string | null): Paging {
  Object.defineProperty(paging, NEXT_AFTER, { value: nextAfter });
  return paging;
}

/** The `nextAfter` of a page's `paging`, when it has one. */
export const nextAfterOf = (paging: unknown): ((count: number) => string | null) | undefined =>
  paging && typeof paging === 'object'
    ? (paging as { [NEXT_AFTER]?: (count: number) => string | null })[NEXT_AFTER]
    : undefined;

/**
 * The page's own rows and whether more follow. `cut` tells a row the page was cut before
 * (a source that ends pages at a byte budget marks the first row past it; db/page-budget.ts):
 * the page ends there, and more follow.
 */
export function trimPage<T>(
  plan: QueryPlan,
  rows: T[],
  cut?: (row: T) => boolean,
): { rows: T[]; hasMore: boolean } {
  const end = cut ? rows.findIndex((row, i) => i < plan.limit && cut(row)) : -1;
  if (end > 0) return { rows: rows.slice(0, end), hasMore: true };
  return { rows: rows.slice(0, plan.limit), hasMore: rows.length > plan.limit };
}

/** Credentials are never repeated into a link. */
const NOT_REPEATED = new Set(['apiKey']);

/**
 * `paging.next` of a page, made from what the request fixes (the path, the filters, the
 * plan) once, and finished with the page's last id: `head` + the id + `tail` in the keyset
 * order, `head` alone when skipping. A request repeated by a poller takes the template it
 * made before (query/compiled-lists.ts).
 */
export interface LinkTemplate {
  readonly head: string;
  readonly tail: string;
  readonly keyset: boolean;
  /** Skipping: the rows this page skipped, to which the next link adds the page's. */
  readonly skip: number;
}

export function linkTemplate(
  path: string,
  query: Record<string, unknown>,
  plan: QueryPlan,
): LinkTemplate {
  const params: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (NOT_REPEATED.has(key) || key === 'limit' || key === 'skip' || key === 'offset') continue;
    if (plan.keyset && key === 'id[lt]') continue;
    if (typeof value === 'string') params.push(`${encode(key)}=${encode(value)}`);
  }
  const limit = `limit=${plan.limit}`;
  if (!plan.keyset)
    return {
      head: `${path}?${[...params, limit, 'skip='].join('&')}`,
      tail: '',
      keyset: false,
      skip: plan.skip,
    };
  return {
    head: `${path}?${[...params, 'id[lt]='].join('&')}`,
    tail: `&${limit}`,
    keyset: true,
    skip: 0,
  };
}

/**
 * The link to the page after one of `rows` rows whose last is `lastId`, or null on the
 * last page. A page cut short by its byte budget has fewer rows than its limit: skipping,
 * the next page starts right after them.
 */
export function linkAfter(
  template: LinkTemplate,
  lastId: string | undefined,
  hasMore: boolean,
  rows: number,
): string | null {
  if (!hasMore || lastId === undefined) return null;
  return template.keyset
    ? template.head + encode(lastId) + template.tail
    : template.head + String(template.skip + rows);
}

/** What percent-encoding leaves as it is, with the brackets and commas kept readable. */
const UNRESERVED = /^[\w.!~*'()[\],-]*$/;
const KEPT: Record<string, string> = { '%5B': '[', '%5D': ']', '%2C': ',' };

/**
 * Percent-encoding that leaves the brackets of `field[operator]` and the commas of a list
 * readable. Every list page writes its link: names and ids need no encoding and are
 * returned as they are; the rest is encoded once and the three kept characters put back in
 * one pass.
 */
function encode(text: string): string {
  if (UNRESERVED.test(text)) return text;
  return encodeURIComponent(text).replace(/%5[BD]|%2C/g, (kept) => KEPT[kept]!);
}
