import { defineConfig } from 'vitest/config';

// Tests run on embedded PGlite by default; with TEST_DATABASE_URL set they run on that
// PostgreSQL server, plus the suites in test/postgres/ that need a real server.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // test/cluster/ and test/browser/ are tiers of their own (npm run test:cluster, which
    // needs HAProxy, and npm run test:browser, which needs Chromium).
    exclude: onPostgres
      ? ['test/cluster/**', 'test/browser/**']
      : ['test/postgres/**', 'test/cluster/**', 'test/browser/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
