import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './test/tiers.js';

// The slow tier (`npm run test:slow`): the suites test/tiers.ts names (real processes,
// fuzzers, property tests, stress and timeouts), on the database the fast tier uses
// (PGlite, or TEST_DATABASE_URL's server). CI runs it after the fast tier, on both.
export default defineConfig({
  test: {
    include: SLOW_TESTS,
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
