import { defineConfig } from 'vitest/config';

/** Browser journeys: Chromium (playwright-core) against the app started like a user would. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    environment: 'node',
    include: ['**/*.e2e.test.ts'],
    // One migrated database per run, copied into each file's DATA_DIR (support/migrated-data-dir.ts).
    globalSetup: ['support/migrated-data-dir.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
