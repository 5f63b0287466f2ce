import fs from 'node:fs';
import path from 'node:path';

/**
 * The test tiers. `npm test` (vitest.config.ts) is the fast tier a newcomer runs after
 * `npm install`; `npm run test:slow` (vitest.slow.config.ts) is what must stay slow by its
 * nature, and CI runs it after the fast tier on both databases. One list says which is
 * which, so a file is in exactly one of them: the fast tier leaves out what this names, the
 * slow tier runs exactly that.
 */
export const SLOW_TESTS = [
  // Real processes: the built server started, restarted, killed; the command line.
  'test/process/**/*.test.ts',
  // Processes racing for a stale lock.
  'test/unit/data-dir-lock.test.ts',
  // Differential property tests against the reference evaluator (thousands of queries).
  'test/property/**/*.test.ts',
  // The route fuzzer (10,000 requests) and the list-filter fuzzer.
  'test/http/route-fuzz.test.ts',
  'test/http/lists-fuzz.test.ts',
  // 10,000 concurrent bookings.
  'test/http/order-concurrency.test.ts',
  // Socket timeouts waited out: idle, slow and never-reading clients.
  'test/http/slow-clients.test.ts',
  'test/http/connection-slots.test.ts',
  // Redis hanging and coming back, waited out.
  'test/http/redis-outage.test.ts',
];

/** Every test file of the two tiers (the cluster and browser tiers have configs of their own). */
export const ALL_TESTS = ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/*/test/**/*.test.ts'];

/** Tiers of their own: the multi-instance tier (HAProxy) and the browser tier (Chromium). */
export const OTHER_TIERS = ['test/cluster/**', 'test/browser/**'];

/** Suites that need a real PostgreSQL server: only with TEST_DATABASE_URL. */
export const POSTGRES_ONLY = ['test/postgres/**'];

/** `vi.mock` and its kin, or `@isolated` in a file's header comment. */
const OWN_REGISTRY = /\bvi\.(mock|doMock|unmock)\(|^ \* @isolated\b/m;

function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * Test files that get a fresh module registry of their own: those that mock modules
 * (`vi.mock`), and those whose header says `@isolated` because they depend on state a
 * module keeps for the whole process (the prepared statements' budget, say), which files
 * run before them in the same worker would have used. The fast tier runs the others in
 * shared workers (isolate: false), each worker importing the application once instead of
 * once per file, where a module another file imported first would not be mocked. Found by
 * reading the files, so a new one needs no listing.
 */
export function isolatedTests(root = '.'): string[] {
  return ['test', 'src', 'packages']
    .flatMap((dir) => testFiles(path.join(root, dir)))
    .filter((file) => OWN_REGISTRY.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file).split(path.sep).join('/'));
}
