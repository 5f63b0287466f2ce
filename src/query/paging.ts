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

export function nextLink(
  path: string,
  query: Record<string, unknown>,
  plan: QueryPlan,
  lastId: string | undefined,
  hasMore: boolean,
): string | null {
  if (!hasMore || lastId === undefined) return null;
  const params: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    if (NOT_REPEATED.has(key) || key === 'limit' || key === 'skip' || key === 'offset') continue;
    if (plan.keyset && key === 'id[lt]') continue;
    if (typeof value === 'string') params.push([key, value]);
  }
  if (plan.keyset) params.push(['id[lt]', lastId]);
  params.push(['limit', String(plan.limit)]);
  if (!plan.keyset) params.push(['skip', String(plan.skip + plan.limit)]);
  return `${path}?${params.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
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
