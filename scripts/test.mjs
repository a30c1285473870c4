#!/usr/bin/env node
// `npm test`: lint, type-check, build, unit + integration suites (vitest), then the browser suite (Playwright in
// Chromium against the built app). Ends with one line "N passed, N failed" totalled over every suite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function step(label, command, args, options = {}) {
  console.info(`\n▶ ${label}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: options.cwd ?? root, stdio: 'inherit', env: process.env });
  const ok = result.status === 0;
  console.info(`${ok ? '✔' : '✘'} ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return ok;
}

/** A check with no test count of its own (lint, types, build) counts as one test. */
function check(label, command, args, options) {
  const ok = step(label, command, args, options);
  totals[ok ? 'passed' : 'failed'] += 1;
  lines.push(`${label}: ${ok ? 'ok' : 'FAILED'}`);
  return ok;
}

function vitestSuite(label, args, reportName) {
  const report = path.join(resultsDir, `${reportName}.json`);
  fs.rmSync(report, { force: true });
  const ok = step(label, bin('vitest'), [
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (!fs.existsSync(report)) {
    totals.failed += 1;
    lines.push(`${label}: no report (runner crashed)`);
    return;
  }
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A suite that fails to load counts as a failure even when no test inside it ran.
  const failedSuites = (r.testResults ?? []).filter(
    (s) => s.status === 'failed' && s.assertionResults.length === 0,
  ).length;
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + failedSuites;
  totals.skipped += skipped;
  lines.push(`${label}: ${r.numPassedTests} passed, ${r.numFailedTests + failedSuites} failed, ${skipped} skipped`);
  if (!ok && r.numFailedTests + failedSuites === 0) {
    totals.failed += 1;
    lines.push(`${label}: runner exited with an error`);
  }
}

check('lint (biome)', bin('biome'), ['check', '.']);
check('types: shared', bin('tsc'), ['-p', 'shared']);
check('types: server', bin('tsc'), ['-p', 'server']);
check('types: web', bin('tsc'), ['-p', 'web']);
check('types: e2e', bin('tsc'), ['-p', 'e2e']);
const built =
  check('build: server', process.execPath, ['build.mjs'], { cwd: path.join(root, 'server') }) &&
  check('build: web', process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: path.join(root, 'web'),
  });
if (fs.existsSync(path.join(root, 'web/scripts/check-bundle-size.mjs')) && built) {
  check('bundle size: landing ≤ 100 KB gzip', process.execPath, [path.join(root, 'web/scripts/check-bundle-size.mjs')]);
}
vitestSuite('unit + integration (vitest)', [], 'vitest');
if (fs.existsSync(path.join(root, 'e2e/vitest.config.ts'))) {
  if (built) vitestSuite('browser (playwright + chromium)', ['--config', 'e2e/vitest.config.ts'], 'e2e');
  else lines.push('browser: not run (build failed)');
}

const summary = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`;
console.info(`\n${lines.map((l) => `  ${l}`).join('\n')}`);
fs.writeFileSync(path.join(resultsDir, 'summary.txt'), `${summary}\n`);
console.info(summary);
process.exit(totals.failed > 0 ? 1 : 0);
