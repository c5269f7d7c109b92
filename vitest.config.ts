import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // ACHILLES_LOOP_WATCH=<file>: record how long each test held its worker's event loop (test/helpers/loop-watch.ts).
    setupFiles: process.env.ACHILLES_LOOP_WATCH ? ['test/helpers/loop-watch.ts'] : [],
  },
});
