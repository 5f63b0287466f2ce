import { defineConfig } from 'vitest/config';

// The browser tier (test/browser/): the checkout widget in Debian's Chromium, driven by
// playwright-core (`npm run test:browser`; .ci/run installs Chromium with apt). On the
// embedded database; screenshots go to test-results/widget/.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
  },
});
