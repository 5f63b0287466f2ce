/**
 * The checkout widget's script (widget/checkout.ts) as the browser gets it: one minified
 * file, built by `npm run build` into dist/widget/checkout.js, or, when that is missing
 * (tests and `npm run dev` run from source), built once in memory with the same options.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WIDGET_SOURCE = path.join(ROOT, 'widget/checkout.ts');
export const WIDGET_OUTFILE = path.join(ROOT, 'dist/widget/checkout.js');

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
