/**
 * What a resource module hands to the application (app.ts): its named schemas, its routes,
 * the facade other modules call, its version changes, and what `expand=` may resolve to its
 * objects. Plain data: app.ts registers the
 * schemas at the root, the routes under /api, and gives the changes to the version registry.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from 'typebox';
import type { VersionChanges } from '../versions/types.js';
import type { Expanders } from './expand.js';

export interface ResourceModule<Facade = unknown> {
  readonly name: string;
  /** Named schemas (`$id`): OpenAPI components that routes refer to with `refTo`. */
  readonly schemas: readonly TSchema[];
  /** Routes, registered under `/api`; each handler is one call of the module's service. */
  readonly routes: FastifyPluginAsync;
  /** What other modules may call, each function taking an explicit executor or transaction. */
  readonly facade: Facade;
  readonly versions?: VersionChanges;
  /** The relations `expand=` resolves to this module's objects (src/http/expand.ts). */
  readonly expanders?: Expanders;
}
