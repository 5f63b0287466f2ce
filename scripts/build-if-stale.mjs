/**
 * Builds dist/ (`npm run build`) unless it was already built from exactly these sources:
 * `npm start` and `npm install` run it, so a newcomer's start does not pay a full build
 * every time (11-20 s on a loaded machine) and a changed source is never served stale.
 * Sources are compared by content (a hash), not by time: a checkout rewrites times.
 * Plain JavaScript, so `npm start` runs it with node alone (tsx's start-up cost 0.5 s).
 *
 *   node scripts/build-if-stale.mjs
 */
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = [
  'src',
  'widget',
  'scripts/bundle.ts',
  'scripts/template.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const STAMP = path.join(ROOT, 'dist/.build-stamp');
/** What a build leaves: the server's bundle, and the migrated database template. */
const OUTPUTS = ['dist/bundle/server.js', 'dist/template/PG_VERSION'].map((file) =>
  path.join(ROOT, file),
);

/** @param {string} entry @returns {string[]} */
function files(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => files(path.join(entry, name)));
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex');
}

const current = sourceHash();
const built = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
if (built === current && OUTPUTS.every((file) => fs.existsSync(file))) {
  console.error('dist/ is up to date with the sources');
} else {
  execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  fs.writeFileSync(STAMP, `${current}\n`);
}
