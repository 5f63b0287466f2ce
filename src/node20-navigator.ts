/**
 * Node 21 and later define `navigator.userAgent` ("Node.js/<major>"); Node 20 has no
 * `navigator`. node-postgres tells whether it runs on Cloudflare Workers, when it is
 * imported, from `navigator.userAgent`, and where there is none by constructing a fetch
 * `Response`, which on Node 20 loads all of undici's fetch: about 5 % of this service's
 * start-up CPU (docs/performance.md, eleventh pass). Imported first by the entry points, this
 * gives Node 20 the `userAgent` later versions have, and their `hardwareConcurrency` (a
 * library that finds a `navigator` may size a pool by it); on 21+ it does nothing. Our
 * bundle's dependencies read `navigator.userAgent` only.
 */
import { availableParallelism } from 'node:os';

if (!('navigator' in globalThis)) {
  Object.defineProperty(globalThis, 'navigator', {
    value: Object.freeze({
      userAgent: `Node.js/${process.versions.node.split('.')[0]}`,
      hardwareConcurrency: availableParallelism(),
    }),
    configurable: true,
    writable: true,
    enumerable: false,
  });
}
