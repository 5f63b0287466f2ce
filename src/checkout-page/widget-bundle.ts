/**
 * The checkout widget's script (widget/checkout.ts) as the browser gets it: one minified
 * file, built by `npm run build` into dist/public/checkout.js, or, when that is missing
 * (tests and `npm run dev` run from source), built once in memory with the same options.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

/**
 * The project's root: the nearest folder up from this module (src/checkout-page, dist/checkout-page, or
 * wherever a bundle of the server was written) whose package.json is this service's.
 */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'booking-service') return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

const ROOT = projectRoot();
export const WIDGET_SOURCE = path.join(ROOT, 'widget/checkout.ts');
export const WIDGET_OUTFILE = path.join(ROOT, 'dist/public/checkout.js');

/** esbuild's options for the widget: a browser script, no modules, minified. */
export const widgetBuildOptions: BuildOptions = {
  entryPoints: [WIDGET_SOURCE],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
};

export async function loadWidget(): Promise<Buffer> {
  if (fs.existsSync(WIDGET_OUTFILE)) return fs.readFileSync(WIDGET_OUTFILE);
  const { build } = await import('esbuild');
  const result = await build({ ...widgetBuildOptions, write: false });
  return Buffer.from(result.outputFiles[0]!.contents);
}
