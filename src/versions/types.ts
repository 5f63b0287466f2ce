/**
 * The shape of dated API versions. Core code speaks only the latest API; callers pinned
 * before a change get it undone (Stripe's design):
 * - request rewrites, per route, run before validation, oldest change first, and turn an
 *   older request into the current one (they validate what they read before using it),
 *   recording the names they change so answers name what the client sent (sent-names.ts);
 * - object transforms, per `object` type, run on every response (errors included), newest
 *   change first, wherever objects of that type appear (see transforms.ts).
 * Modules declare both for their own routes and objects; this folder holds the catalogue of
 * dates (what changed, for the changelog) and the machinery.
 */
import type { Db } from '../db/database.js';
import type { Caller } from '../domain/caller.js';
import type { SentNames } from './sent-names.js';
import type { ObjectTransform } from './transforms.js';

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

/** What a rewrite or transform may consult: translating ids between versions can need data. */
export interface VersionContext {
  readonly db: Db;
  readonly caller: Caller | null;
  /** What the request's rewrites renamed (none outside a request: a webhook's payload). */
  readonly sentNames?: SentNames;
}

/** A rewrite records the names it changes, so answers name what the client sent. */
export interface RewriteContext extends VersionContext {
  readonly sentNames: SentNames;
}

export interface RequestRewrite extends RouteRef {
  /** The dated version that introduced the change: callers before it get the rewrite. */
  readonly version: string;
  rewrite(request: RequestParts, context: RewriteContext): void | Promise<void>;
}

export type VersionTransform = ObjectTransform<VersionContext>;

/** What a module contributes to versioning. */
export interface VersionChanges {
  readonly requests?: readonly RequestRewrite[];
  readonly objects?: readonly VersionTransform[];
}

export interface ApiVersion {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly title: string;
  /** What changed, for client developers (the changelog is generated from this). */
  readonly description: string;
}
