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

/** Percent-encoding that leaves the brackets of `field[operator]` readable. */
function encode(text: string): string {
  return encodeURIComponent(text).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%2C/g, ',');
}
