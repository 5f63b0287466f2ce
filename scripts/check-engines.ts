/**
 * Checks that every package the lockfile installs accepts each Node.js line this service
 * supports (package.json `engines.node`, from the oldest version of each), so `npm install`
 * warns of no EBADENGINE there. Two dependencies wanted Node 22: cookie 2, through
 * light-my-request 6.8 (fastify's inject), which uses only its `stringifySetCookie`, the same
 * in cookie 1.1; and content-disposition 3, through @fastify/static 10.1.4 and later (Swagger
 * UI's files). package.json `overrides` picks cookie 1.1.1 under light-my-request and
 * @fastify/static 10.1.3 (content-disposition 2). CI runs it.
 *
 *   npm run check:engines
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

interface LockEntry {
  version?: string;
  engines?: { node?: unknown };
}

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as T;
const manifest = read<{ engines?: { node?: string } }>('package.json');
const lock = read<{ packages?: Record<string, LockEntry> }>('package-lock.json');

const supported = manifest.engines?.node ?? '';
// The oldest version of each line: "^20.19.0 || ^22.13.0 || >=24" gives 20.19.0, 22.13.0, 24.0.0.
const oldest = supported
  .split('||')
  .map((part) => semver.minVersion(part.trim())?.version)
  .filter((version): version is string => version !== undefined);
if (oldest.length === 0) {
  console.error('package.json names no engines.node range');
  process.exit(1);
}

const refusing = Object.entries(lock.packages ?? {}).flatMap(([where, entry]) => {
  const wants = entry.engines?.node;
  if (where === '' || typeof wants !== 'string') return [];
  return oldest
    .filter((version) => !semver.satisfies(version, wants))
    .map((version) => `${where}@${entry.version ?? '?'} wants node ${wants} (not ${version})`);
});

if (refusing.length > 0) {
  console.error(`Packages that refuse a Node version engines.node "${supported}" supports:`);
  for (const line of refusing) console.error(`  ${line}`);
  process.exit(1);
}
console.error(`Every installed package accepts Node ${oldest.join(', ')} ("${supported}").`);
