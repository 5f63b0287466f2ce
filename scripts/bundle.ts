/**
 * Bundles the server into one ES module (`dist/bundle/server.js`), which `npm start` runs.
 * Why: resolving and reading the ~900 files of the server's dependencies was half its
 * start-up time (1.5 s to listening on PostgreSQL unbundled, 0.7 s bundled; docs/performance.md).
 *
 * Kept out of the bundle, resolved from node_modules at run time: PGlite (it loads its
 * WebAssembly and data files next to its own code, and is imported only for the embedded
 * database), Swagger UI (it serves its static files from its own folder), pg-native
 * (an optional add-on pg tries to load), and esbuild (the server builds the widget with it
 * only when dist/public/checkout.js is missing; it locates its own binary).
 *
 * Also the checkout widget's browser script, dist/public/checkout.js.
 *
 *   tsx scripts/bundle.ts [outfile]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { WIDGET_OUTFILE, widgetBuildOptions } from '../src/checkout-page/widget-bundle.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_OUTFILE = path.join(ROOT, 'dist/bundle/server.js');

export async function bundleServer(outfile: string = DEFAULT_OUTFILE): Promise<string> {
  await build({
    entryPoints: [path.join(ROOT, 'src/server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Maps for readable stacks with NODE_OPTIONS=--enable-source-maps (off by default: +0.1 s start-up).
    sourcemap: true,
    // The bundle's source stays in V8's heap for the life of the process, and one character
    // past Latin-1 in a comment made all of it a two-byte string: 10.4 MB for a 5.2 MB file.
    // Without comments and spacing it is 3.4 MB of ASCII (names kept, for stacks and
    // profiles); the licence comments go to server.js.LEGAL.txt beside it.
    minifyWhitespace: true,
    legalComments: 'external',
    external: ['@electric-sql/pglite', '@fastify/swagger-ui', 'pg-native', 'esbuild'],
    // CommonJS dependencies inside an ES module still call require().
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

/** The checkout widget's script (served at /checkout.js; src/checkout-page/widget-bundle.ts). */
export async function bundleWidget(): Promise<string> {
  await build({ ...widgetBuildOptions, outfile: WIDGET_OUTFILE });
  return WIDGET_OUTFILE;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleServer(process.argv[2]);
  await bundleWidget();
}
