import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { ALL_TESTS, OTHER_TIERS, POSTGRES_ONLY, SLOW_TESTS } from './test/tiers.js';

// The fast tier (`npm test`): everything but what test/tiers.ts calls slow (`npm run
// test:slow`, which CI runs after it). On embedded PGlite by default; with TEST_DATABASE_URL
// set, on that PostgreSQL server, plus the suites in test/postgres/ that need a real server.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: ALL_TESTS,
    exclude: [...OTHER_TIERS, ...SLOW_TESTS, ...(onPostgres ? [] : POSTGRES_ONLY)],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker per core but one (a single worker on two cores); test
    // files spend much of their time waiting (the database, sockets, timers), so three
    // share two cores well: 8.6 min -> see README.
    maxWorkers: Math.max(3, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
