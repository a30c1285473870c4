#!/usr/bin/env node
/**
 * npm run bench [-- import send webhooks tracking api segments history ab] — runs the benchmarks one after another (all by default), each in its
 * own process, so one's memory and CPU never colour another's figures. Each benchmark prints its own table;
 * docs/benchmarks.md records the figures and the exact command of each run. Benchmarks are never part of
 * `npm test`: timing has no place in pass/fail tests.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const ALL = ['import', 'send', 'webhooks', 'tracking', 'api', 'segments', 'history', 'ab'];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  console.error(`Benchmark desconhecido: ${unknown.join(', ')}. Use: ${ALL.join(', ')}.`);
  process.exit(2);
}
const selected = wanted.length > 0 ? wanted : ALL;

console.log(
  `machine: ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
let failed = 0;
for (const name of selected) {
  console.log(`\n▶ bench:${name}`);
  const run = spawnSync('npm', ['run', `bench:${name}`, '--silent'], { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed += 1;
    console.error(`✖ bench:${name} terminou com código ${run.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
