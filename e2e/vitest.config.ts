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
    // Two files at a time, one per core: each starts its own app (own free port, own DATA_DIR copy, bounce receiver
    // off, mail catcher on port 0 — support/app.ts) and its own Chromium, and signs up its own accounts, so two
    // files never share state; most of a file's time is the app's and the browser's waits, not CPU.
    maxWorkers: 2,
  },
});
