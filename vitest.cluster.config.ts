import { defineConfig } from 'vitest/config';

// The multi-instance tier (test/cluster/): built servers behind HAProxy on the PostgreSQL
// server of TEST_DATABASE_URL. One file at a time: the drills restart instances and the
// database itself.
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
