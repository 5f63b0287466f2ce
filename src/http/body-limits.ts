/**
 * Each route's body limits, derived from its body schema when the route is registered (an
 * onRoute hook, app.ts): the byte limit Fastify enforces before it reads a body (413), and
 * the budget of values and keys checked on the raw text before JSON.parse (body-parsing.ts)
 * and held to by the input walk (input-text.ts). docs/security.md ("Request bodies") says
 * why these numbers.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { bodyBounds, type BodyBounds, type SchemaNode } from './body-bounds.js';
import { countJson, type JsonCounts } from './json-scan.js';

/** Deeper than any object of the API (metadata included): refused before it is measured. */
export const MAX_JSON_DEPTH = 32;

export interface BodyBudget extends JsonCounts {
  /** The JSON type the schema requires of the whole body, when it names one. */
  type?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a body of this route may hold (set for every route by `bodyLimitsHook`). */
    bodyBudget?: BodyBudget;
  }
}

/** The least byte limit of a route with a body schema: room for whitespace and old clients. */
export const MIN_BODY_LIMIT = 64 * 1024;
/** Routes that read no body still parse one (and refuse bad text in it), but a small one. */
export const NO_BODY_LIMIT = 16 * 1024;

export interface BodyPolicy {
  /** Bytes, refused with 413 before the body is read. */
  bytes: number;
  budget: BodyBudget;
}

/**
 * The limits of a route from the bounds of its body schema (undefined: it has none), the
 * service's cap (BODY_LIMIT) and a limit the route set itself. Twice the schema's bounds,
 * plus a margin: callers before v2026-11-25 may send fields the schema does not know (they
 * are dropped), and real clients indent. Where the schema bounds nothing, the budget follows
 * from the byte limit: a value takes at least 8 bytes and a key 16 in any body worth parsing.
 */
export function bodyPolicy(
  bounds: BodyBounds | undefined,
  cap: number,
  explicit?: number,
  type?: string,
): BodyPolicy {
  const bytes = Math.min(
    cap,
    explicit ?? (bounds ? Math.max(MIN_BODY_LIMIT, Math.ceil(2 * bounds.bytes)) : NO_BODY_LIMIT),
  );
  const nodes = bounds?.nodes ?? 0;
  const keys = bounds?.keys ?? 0;
  return {
    bytes,
    budget: {
      values: Math.min(
        Math.floor(bytes / 2),
        Number.isFinite(nodes) ? 2 * nodes + 1024 : Math.floor(bytes / 8),
      ),
      keys: Math.min(
        Math.floor(bytes / 4),
        Number.isFinite(keys) ? 2 * keys + 256 : Math.floor(bytes / 16),
      ),
      depth: MAX_JSON_DEPTH,
      ...(type === undefined ? {} : { type }),
    },
  };
}

/**
 * The budget of a request no route has (a 404 still parses its body, under the service's
 * byte limit): the same as a route's that reads no body.
 */
export const UNROUTED_BUDGET: BodyBudget = bodyPolicy(undefined, Infinity).budget;

/** onRoute: sets `bodyLimit` (unless the route set one) and `config.bodyBudget`. */
export function bodyLimitsHook(cap: number) {
  return function (this: FastifyInstance, route: RouteOptions): void {
    const schema = route.schema?.body as SchemaNode | undefined;
    const resolve = (ref: string) =>
      this.getSchema(ref.replace(/#$/, '')) as SchemaNode | undefined;
    const bounds = schema ? bodyBounds(schema, resolve) : undefined;
    const type =
      typeof schema?.type === 'string' && ['object', 'array'].includes(schema.type)
        ? schema.type
        : undefined;
    const { bytes, budget } = bodyPolicy(bounds, cap, route.bodyLimit, type);
    route.bodyLimit = bytes;
    route.config = { ...route.config, bodyBudget: budget };
  };
}

/**
 * Why a body's text is refused before parsing, or undefined: more values or keys than the
 * route's budget, or nested deeper than any object of the API. Costs a scan of the text up
 * to the point where the budget runs out.
 */
export function textBudgetProblem(text: string, budget: BodyBudget): DomainError | undefined {
  const counts = countJson(text, budget);
  if (counts.depth > budget.depth) return refusal(`is nested deeper than ${budget.depth} levels`);
  if (counts.values > budget.values) {
    return refusal(`has more than ${budget.values} values; no valid request has as many`);
  }
  if (counts.keys > budget.keys) {
    return refusal(`has more than ${budget.keys} fields; no valid request has as many`);
  }
  return undefined;
}

const refusal = (detail: string) =>
  new DomainError('validation_failed', `body ${detail}`, {
    errors: [{ in: 'body', name: 'body', detail }],
  });
