/**
 * The checkout widget's script (widget/checkout.ts) as the browser gets it: one minified
 * file, built by `npm run build` into dist/public/checkout.js, or, when running from src/
 * (tests and `npm run dev`) or that is missing, built once in memory with the same options;
 * and the service's settings the widget reads, written into it as it is served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { projectRoot } from '../config.js';

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

/** Running from src/ (tests, `npm run dev`): a dist/ left by an older build may be stale. */
const FROM_SOURCE = fileURLToPath(import.meta.url).startsWith(path.join(ROOT, 'src') + path.sep);

export async function loadWidget(): Promise<Buffer> {
  if (!FROM_SOURCE && fs.existsSync(WIDGET_OUTFILE)) return fs.readFileSync(WIDGET_OUTFILE);
  const { build } = await import('esbuild');
  const result = await build({ ...widgetBuildOptions, write: false });
  return Buffer.from(result.outputFiles[0]!.contents);
}

/** What the widget is told about the service that serves it (widget/checkout.ts SETTINGS). */
export interface WidgetSettings {
  /** `sent`: a mail transport is configured; `queued`: email waits in the outbox. */
  mail: 'sent' | 'queued';
}

/** The placeholder as the minified script carries it (JSON.parse's string argument). */
const SETTINGS_PLACEHOLDER = '"__BOOKING_CHECKOUT_SETTINGS__"';

/** The script with `settings` in place of its placeholder; a script without one is refused. */
export function withSettings(script: Buffer, settings: WidgetSettings): Buffer {
  const text = script.toString('utf8');
  if (!text.includes(SETTINGS_PLACEHOLDER))
    throw new Error('the checkout widget has no settings placeholder (widget/checkout.ts)');
  return Buffer.from(
    text.replaceAll(SETTINGS_PLACEHOLDER, JSON.stringify(JSON.stringify(settings))),
    'utf8',
  );
}
