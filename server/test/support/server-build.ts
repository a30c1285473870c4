import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The bundled server real-process tests start (carteiro-process.ts), as `npm start` does. */
export const SERVER_MAIN = path.join(ROOT, 'server/dist/main.js');

/**
 * vitest globalSetup (server project): builds server/dist once before any test file when it is missing or older than
 * a source of server/src or shared/src — the check `npm start` makes (scripts/start.mjs). After `npm test`'s build
 * step it is a no-op. Once per run, before the workers start, so no test process ever reads a half-written bundle.
 */
export default function buildServerIfStale(): void {
  const built = fs.existsSync(SERVER_MAIN) ? fs.statSync(SERVER_MAIN).mtimeMs : 0;
  const sources = [path.join(ROOT, 'server/src'), path.join(ROOT, 'shared/src'), path.join(ROOT, 'server/build.mjs')];
  if (sources.every((source) => newestMtime(source) <= built)) return;
  const result = spawnSync(process.execPath, ['build.mjs'], { cwd: path.join(ROOT, 'server'), stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`server build failed (node build.mjs in server/, exit ${result.status})`);
}

function newestMtime(file: string): number {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}
