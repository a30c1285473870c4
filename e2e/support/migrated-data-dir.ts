import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  interface ProvidedContext {
    /** A DATA_DIR the app migrated once for this run (its `pgdata`); null when the suite runs against E2E_BASE_URL. */
    e2eMigratedDataDir: string | null;
  }
}

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * vitest globalSetup (e2e/vitest.config.ts): migrates one embedded database with the app's own `migrate` role
 * (`node scripts/start.mjs migrate`, which also builds the server when stale), and each file's app starts from a
 * copy of it (app.ts) — as an installed Carteiro restarts on its data — instead of PGlite's initdb and every
 * migration at each file's start (≈ 4 s of CPU per file, docs/benchmarks.md "Test suite time").
 */
export default function migrateOnce(project: TestProject): () => void {
  if (process.env.E2E_BASE_URL) {
    project.provide('e2eMigratedDataDir', null);
    return () => {};
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'carteiro-e2e-migrated-'));
  const result = spawnSync(process.execPath, ['scripts/start.mjs', 'migrate'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`npm run migrate for the browser suite exited with ${result.status}`);
  }
  project.provide('e2eMigratedDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
