/**
 * Running a list request end to end: parse, plan, compile (kept for a request that repeats
 * another: compiled-lists.ts), fetch one page (plus a look-ahead row), optionally count, and
 * build `paging`. The resource supplies its spec, its scope
 * (authorization) and how to fetch rows; nothing here knows any table.
 */
import type { Expression, SqlBool } from 'kysely';
import { compileBelow, type CompiledList } from './compile.js';
import { compiledList } from './compiled-lists.js';
import { fragment } from './fragment.js';
import { cuttable, linkAfter, trimPage, type Paging } from './paging.js';
import { requireNarrowing } from './plan.js';
import type { ResourceSpec, Scope } from './types.js';

export interface ListSource<Row> {
  rows(compiled: CompiledList): Promise<Row[]>;
  count(where: Expression<SqlBool>): Promise<number>;
  /** The first row past the page's byte budget, for sources that have one (paging.ts). */
  cut?(row: Row): boolean;
}

export interface ListRequest {
  /** The collection's path, e.g. `/api/orders`: the base of `paging.next`. */
  path: string;
  query: Record<string, unknown>;
  scope: Scope;
  /** The query `paging.next` repeats, when it holds more than the filters (orders' `search`). */
  linkQuery?: Record<string, unknown>;
  /**
   * A stamp pollers read past (orders' `updatedAt`): a request with a lower bound on it
   * (gt, gte, range) gets only rows stamped before the horizon `at` reads (db/poll-horizon.ts).
   */
  horizon?: { field: string; at: () => Promise<Date> };
}

const LOWER_BOUNDS = new Set(['gt', 'gte', 'range']);

export async function runList<Row extends { id: string }, View>(
  spec: ResourceSpec,
  request: ListRequest,
  source: ListSource<Row>,
  toViews: (rows: Row[]) => Promise<View[]> | View[],
): Promise<{ data: View[]; paging: Paging }> {
  const made = compiledList(spec, request.path, request.query, request.scope, request.linkQuery);
  const { plan: queryPlan, link } = made;
  requireNarrowing(spec, queryPlan.filters);
  let { compiled } = made;
  const { horizon } = request;
  const polled =
    horizon &&
    queryPlan.filters.find((f) => f.field.name === horizon.field && LOWER_BOUNDS.has(f.operator));
  if (horizon && polled) {
    const below = compileBelow(spec, polled.field, await horizon.at());
    compiled = { ...compiled, where: fragment<SqlBool>`(${compiled.where} and ${below})` };
  }
  const [fetched, total] = await Promise.all([
    source.rows(compiled),
    queryPlan.count ? source.count(compiled.where) : Promise.resolve(undefined),
  ]);
  const { rows, hasMore } = trimPage(queryPlan, fetched, source.cut?.bind(source));
  const next = linkAfter(link, rows.at(-1)?.id, hasMore, rows.length);
  return {
    data: await toViews(rows),
    paging: cuttable(total === undefined ? { next } : { next, total }, (count) =>
      linkAfter(link, rows[count - 1]?.id, count < rows.length || hasMore, count),
    ),
  };
}
