/**
 * The shape of a dated API version. Core code speaks only the latest API; each version
 * after the first is one module that knows how to translate for callers pinned before it
 * (Stripe's design): request rewrites run before validation, oldest change first; response
 * rewrites run after the handler, newest change first.
 */
import type { Db } from '../db/database.js';
import type { Caller } from '../modules/users/caller.js';

export interface RouteRef {
  method: string;
  /** The route pattern as registered, e.g. `/api/events/:id`. */
  url: string;
}

export interface RequestParts {
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, unknown>;
}

/** What a rewrite may consult: translating ids between versions can need the database. */
export interface RewriteContext {
  readonly db: Db;
  readonly caller: Caller | null;
  readonly statusCode: number;
}

export interface RequestRewrite extends RouteRef {
  rewrite(request: RequestParts, context: RewriteContext): void | Promise<void>;
}

export interface ResponseRewrite extends RouteRef {
  rewrite(body: unknown, context: RewriteContext): unknown;
}

export interface ApiVersion {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly title: string;
  /** What changed, for client developers (the changelog is generated from this). */
  readonly description: string;
  readonly requests?: readonly RequestRewrite[];
  readonly responses?: readonly ResponseRewrite[];
}
