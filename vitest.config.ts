import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Absolute, so a run with another --root (test/heavy-work-helpers.test.ts checks the watch that way) finds them.
const helper = (name: string) => fileURLToPath(new URL(`./test/helpers/${name}`, import.meta.url));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // ACHILLES_LOOP_WATCH=<file>: record how long each test held its worker's event loop
    // (test/helpers/loop-watch.ts) and list the longest stalls after the run (loop-watch-report.ts).
    setupFiles: process.env.ACHILLES_LOOP_WATCH ? [helper('loop-watch.ts')] : [],
    globalSetup: process.env.ACHILLES_LOOP_WATCH ? [helper('loop-watch-report.ts')] : [],
  },
});
