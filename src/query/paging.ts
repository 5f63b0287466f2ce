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

export function trimPage<T>(plan: QueryPlan, rows: T[]): { rows: T[]; hasMore: boolean } {
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
      head: `${path}?${[...params, limit, `skip=${plan.skip + plan.limit}`].join('&')}`,
      tail: '',
      keyset: false,
    };
  return { head: `${path}?${[...params, 'id[lt]='].join('&')}`, tail: `&${limit}`, keyset: true };
}

/** The link to the page after one whose last row is `lastId`, or null on the last page. */
export function linkAfter(
  template: LinkTemplate,
  lastId: string | undefined,
  hasMore: boolean,
): string | null {
  if (!hasMore || lastId === undefined) return null;
  return template.keyset ? template.head + encode(lastId) + template.tail : template.head;
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
