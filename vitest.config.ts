import os from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { ALL_TESTS, OTHER_TIERS, POSTGRES_ONLY, SLOW_TESTS, isolatedTests } from './test/tiers.js';

// The fast tier (`npm test`): everything but what test/tiers.ts calls slow (`npm run
// test:slow`, which CI runs after it). On embedded PGlite by default; with TEST_DATABASE_URL
// set, on that PostgreSQL server, plus the suites in test/postgres/ that need a real server.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const excluded = [...OTHER_TIERS, ...SLOW_TESTS, ...(onPostgres ? [] : POSTGRES_ONLY)];
const isolated = isolatedTests();
// Files that mock modules, or say `@isolated`, keep a registry of their own (test/tiers.ts).
const own: TestProjectInlineConfiguration[] =
  isolated.length === 0
    ? []
    : [{ extends: true, test: { name: 'isolated', include: isolated, exclude: excluded } }];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker per core but one: a single worker on two cores. Test
    // files spend much of their time waiting (the database, sockets, timers): three share
    // two cores well.
    maxWorkers: Math.max(3, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Workers import the application once and run file after file (isolate: false): a
      // fresh module registry per file cost about half the tier's CPU (issue 31).
      {
        extends: true,
        test: {
          name: 'fast',
          isolate: false,
          include: ALL_TESTS,
          exclude: [...excluded, ...isolated],
        },
      },
      ...own,
    ],
  },
});
