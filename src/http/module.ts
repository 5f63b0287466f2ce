/**
 * What a module hands to the application (app.ts), which registers every module of the
 * list (app-modules.ts) the same way: its named schemas at the root (OpenAPI components),
 * its routes under /api (or its own prefix), its version changes to the version registry, what `expand=` may
 * resolve to its objects, its request hooks, and its background workers (started once the
 * app is ready, told to stop claiming when a stop begins, and waited for together when it
 * closes, before the database), plus anything else it holds open. Plain data: nothing here
 * knows any module.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { VersionChanges } from '../versions/types.js';
import type { Expanders } from './expand.js';
import type { ProblemBody } from './problems.js';

/** A request hook of a module. */
export type RequestHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A background loop of a module (a sweeper, a dispatcher). A stop comes in two steps: every
 * worker stops claiming at once, as soon as SIGTERM arrives (server.ts, before the drain),
 * and the close then waits for what they all hold together (worker-lifecycle.ts). A worker
 * that kept claiming through the drain and the close took work it had no time left to
 * finish.
 */
export interface Worker {
  start(): void;
  /** Takes no more work from now on (no new claim or batch); work in flight goes on. */
  stopClaiming(): void;
  /**
   * Stops claiming (if it has not), lets work in flight finish, each piece within its own
   * timeout and with its outcome recorded; resolves once the loop has stopped.
   */
  stop(): Promise<void>;
}

export interface ResourceModule<Facade = unknown> {
  readonly name: string;
  /** Named schemas (`$id`): OpenAPI components that routes refer to with `refTo`. */
  readonly schemas: readonly TSchema[];
  /** Routes, registered under `prefix`; each handler is one call of the module's service. */
  readonly routes?: FastifyPluginAsync;
  /** Where its routes live: `/api` unless it says otherwise (OCTo answers under `/octo`). */
  readonly prefix?: string;
  /**
   * Its routes authenticate their requests themselves (another scheme, another error body:
   * OCTo's Bearer credentials): the API's credentials hook leaves requests under `prefix`
   * alone.
   */
  readonly ownAuthentication?: boolean;
  /**
   * How a refusal under `prefix` looks when it never reaches the module's routes (a URL the
   * router cannot decode): the module's own error body (OCTo's), not problem+json.
   */
  readonly sendProblem?: (reply: FastifyReply, problem: ProblemBody) => FastifyReply;
  /** What other modules may call, each function taking an explicit executor or transaction. */
  readonly facade?: Facade;
  readonly versions?: VersionChanges;
  /** The relations `expand=` resolves to this module's objects (src/http/expand.ts). */
  readonly expanders?: Expanders;
  /**
   * Hooks on every request: `onRequest` ones run after the caller is known (authentication
   * and its version), `preHandler` ones after validation.
   */
  readonly hooks?: {
    readonly onRequest?: readonly RequestHook[];
    readonly preHandler?: readonly RequestHook[];
  };
  /** Background loops: started when the app is ready, stopped when it closes. */
  readonly workers?: readonly Worker[];
  /** Once the server listens (the embedded server's admin socket). */
  onListen?(): Promise<void>;
  /** Releases what the module holds open, after its workers stopped. */
  close?(): Promise<void>;
}
