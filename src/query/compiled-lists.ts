/**
 * The parse, plan and compile stages of a list request, and its link template, kept by
 * what decides them: the resource's spec, the page's path, the caller's scope and the query
 * parameters. The stages are pure functions of these (no clock, no database, no caller
 * beyond its scope), so a request that repeats another (a channel manager polling one
 * window of departures, a page reloaded) takes the same plan, fragments and link without
 * running them again. Every stage's output is immutable once made.
 *
 * Queries come from callers, so the entries are bounded in number (BoundedCache) and each
 * key in length; a query that errs is never kept (its error is thrown before), and a
 * caller's entries hold only what that caller's own scope compiled to.
 */
import { compile, type CompiledList } from './compile.js';
import { linkTemplate, type LinkTemplate } from './paging.js';
import { parse } from './parse.js';
import { plan } from './plan.js';
import { BoundedCache } from './shape.js';
import type { QueryPlan, ResourceSpec, Scope } from './types.js';

export interface CompiledListRequest {
  readonly plan: QueryPlan;
  readonly compiled: CompiledList;
  readonly link: LinkTemplate;
}

/**
 * Entries per resource spec: the distinct queries its pollers repeat. An entry of an
 * orders query with four filters held 3.8 KB of heap, so a spec keeps under 0.5 MB.
 */
const ENTRIES_PER_SPEC = 128;
/**
 * The share of misses kept. Keeping every one cost a request of all-new queries (a crawler's,
 * a report's) 15-16 µs against 7 µs for the stages alone, the kept entries outliving the
 * young generation; kept one time in eight, a query repeated is kept after about eight
 * asks, and one never repeated costs 1-3 µs more than the stages (docs/performance.md, issue 27,
 * twenty-fifth pass). Random, not every eighth miss, so that no steady interleaving of
 * queries can keep a repeated one out.
 */
const ADMITTED = 1 / 8;
/** A longer key (a long `in` list, a long search) is compiled every time, never kept. */
const MAX_KEY_LENGTH = 2048;

const kept = new WeakMap<ResourceSpec, BoundedCache<CompiledListRequest>>();

/**
 * The parameters as text that tells any two sets apart: each name and value with its
 * length before it, so no value can pass for a separator. Undefined when one is not a
 * string (a repeated parameter: `parse` refuses it) or the text grows past the bound.
 */
function parametersKey(query: Record<string, unknown>, key: string): string | undefined {
  for (const name in query) {
    const value = query[name];
    if (typeof value !== 'string') return undefined;
    key += `${name.length}:${name}${value.length}:${value}`;
    if (key.length > MAX_KEY_LENGTH) return undefined;
  }
  return key.length > MAX_KEY_LENGTH ? undefined : key;
}

/** The scope as text: `*` for everything, else each alternative's field and values. */
const scopeKey = (scope: Scope): string => (scope === 'all' ? '*' : JSON.stringify(scope.anyOf));

/** The stages run, nothing kept. */
function run(
  spec: ResourceSpec,
  path: string,
  query: Record<string, unknown>,
  scope: Scope,
  linkQuery: Record<string, unknown>,
): CompiledListRequest {
  const queryPlan = plan(parse(query), spec);
  return {
    plan: queryPlan,
    compiled: compile(spec, queryPlan, scope),
    link: linkTemplate(path, linkQuery, queryPlan),
  };
}

/**
 * The stages' output for `query` on `spec` under `scope`, with `paging.next` written from
 * `linkQuery` (by default the query itself) under `path`. Throws the stages' QueryError.
 */
export function compiledList(
  spec: ResourceSpec,
  path: string,
  query: Record<string, unknown>,
  scope: Scope,
  linkQuery: Record<string, unknown> = query,
): CompiledListRequest {
  let key = parametersKey(query, `${path.length}:${path}${scopeKey(scope)}\u0000`);
  if (key !== undefined && linkQuery !== query) key = parametersKey(linkQuery, `${key}\u0000`);
  if (key === undefined) return run(spec, path, query, scope, linkQuery);
  let entries = kept.get(spec);
  if (!entries) kept.set(spec, (entries = new BoundedCache(ENTRIES_PER_SPEC)));
  let made = entries.get(key);
  if (made) return made;
  made = run(spec, path, query, scope, linkQuery);
  if (Math.random() < ADMITTED) entries.set(key, made);
  return made;
}
