import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import TestSequencer from './server/test/support/test-sequencer';

export default defineConfig({
  test: {
    // One worker per core (vitest's default is one fewer): the integration tests mostly wait on PostgreSQL,
    // PGlite and loopback sockets, so two workers on this 2-core box take the suite from ≈ 580 s to ≈ 380 s.
    maxWorkers: availableParallelism(),
    // Longest first, the real-process files ahead (test-sequencer.ts): the two workers end together.
    sequence: { sequencer: TestSequencer },
    projects: [
      'web/vitest.config.ts',
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          setupFiles: ['server/test/support/fail-on-console-error.ts'],
          // Builds server/dist when stale, once per run: the real-process tests start the bundle (carteiro-process.ts).
          globalSetup: ['server/test/support/server-build.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One process per worker runs file after file, the app's modules imported once: with isolation each file
          // paid a fresh process and module graph (1.5–2.7 s CPU to import the app, docs/benchmarks.md "per-file
          // fixed costs"). Files still never share a database; module state that names rows of one (serial ids) is
          // kept per Db (campaign-links.ts, send-transactional.ts) — a cache keyed by a serial id must be too.
          isolate: false,
        },
        resolve: { alias: { '@carteiro/shared': new URL('./shared/src/index.ts', import.meta.url).pathname } },
      },
    ],
  },
});
