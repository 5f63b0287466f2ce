/**
 * Builds dist/template/: an embedded data directory migrated to the latest schema. A server
 * (or `cli migrate`) finding no database in DATA_DIR starts from a copy of it (about 1 s)
 * instead of PGlite's initdb and every migration (10.9 s on a quiet machine, up to 40 s on
 * a loaded one), then runs only the migrations newer than it (src/app-database.ts). Part of
 * `npm run build`; remade only when the migrations or PGlite change (a hash beside it).
 *
 *   tsx scripts/template.ts [--force]
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPLATE_DIR = path.join(ROOT, 'dist', 'template');
const STAMP = `${TEMPLATE_DIR}.stamp`;

/** What the template is made of: the migrations' sources and PGlite's version. */
function inputsHash(): string {
  const hash = createHash('sha256');
  const migrations = path.join(ROOT, 'src', 'db', 'migrations');
  for (const name of fs.readdirSync(migrations).sort()) {
    hash.update(`${name}\0`);
    hash.update(fs.readFileSync(path.join(migrations, name)));
  }
  const pglite = path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  hash.update((JSON.parse(fs.readFileSync(pglite, 'utf8')) as { version: string }).version);
  return hash.digest('hex');
}

/** Makes the template unless an up-to-date one is there; says which. */
export async function buildTemplate(force = false): Promise<void> {
  const wanted = inputsHash();
  const made = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  if (!force && made === wanted && fs.existsSync(path.join(TEMPLATE_DIR, 'PG_VERSION'))) {
    console.error('dist/template/ is up to date with the migrations');
    return;
  }
  const started = performance.now();
  // Made aside and moved into place: an interrupted build leaves no half template.
  const building = `${TEMPLATE_DIR}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  const database = await openDatabase({ kind: 'pglite', dataDir: building, role: 'build' });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  fs.rmSync(TEMPLATE_DIR, { recursive: true, force: true });
  fs.renameSync(building, TEMPLATE_DIR);
  fs.writeFileSync(STAMP, `${wanted}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.error(`dist/template/: a migrated embedded database, made in ${seconds} s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildTemplate(process.argv.includes('--force'));
}
