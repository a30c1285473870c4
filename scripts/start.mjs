#!/usr/bin/env node
// `npm start` / `npm run api|worker|migrate`: builds what is missing or stale (web/dist, server/dist), then runs
// the server with the role given. A fresh clone needs nothing but `npm install` first.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSupervised } from './supervise.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const role = process.argv[2] ?? 'all';

function newestMtime(dir) {
  let newest = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop();
    if (!fs.existsSync(current)) continue;
    if (!fs.statSync(current).isDirectory()) {
      newest = Math.max(newest, fs.statSync(current).mtimeMs);
      continue;
    }
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

function isStale(output, sources) {
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return sources.some((dir) => newestMtime(path.join(root, dir)) > built);
}

function run(label, command, args, cwd) {
  console.info(`[carteiro] ${label}…`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[carteiro] falhou: ${label}`);
    process.exit(result.status ?? 1);
  }
}

const needsWeb = role === 'all' || role === 'api';
if (needsWeb && isStale(path.join(root, 'web/dist/index.html'), ['web/src', 'web/index.html', 'shared/src'])) {
  run(
    'compilando a interface web (vite build)',
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
    path.join(root, 'web'),
  );
}
if (isStale(path.join(root, 'server/dist/main.js'), ['server/src', 'shared/src'])) {
  run('compilando o servidor', process.execPath, ['build.mjs'], path.join(root, 'server'));
}

// Signals reach the server and `npm start` ends with its exit code, even when npm's shell dies first (supervise.mjs).
runSupervised(process.execPath, ['--enable-source-maps', path.join(root, 'server/dist/main.js'), role]);
