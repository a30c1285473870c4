#!/usr/bin/env node
/**
 * Budget check for the landing page (product.md §6: landing JS ≤ 100 KB gzip).
 * Reads web/dist/.vite/manifest.json (run `npm run build -w web` first), follows the static imports of the
 * entry and of the landing route chunk, gzips each JS file once and sums them. Also fails when that closure
 * contains dashboard or auth code. Usage: node web/scripts/check-bundle-size.mjs [--max-kb=100]
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const LANDING = 'src/features/landing/routes/landing-page.tsx';
const FORBIDDEN = [
  /^src\/app\/dashboard-layout/,
  /^src\/features\/(auth|campaigns|lists|contacts|balance|api-keys|settings|dashboard)\//,
  /react-query|query-core|zod/,
  // The pt-BR error catalogue loads with the chunks that show errors (api-client.ts takes only a few constants).
  /error-messages/,
];
const maxKb = Number(process.argv.find((a) => a.startsWith('--max-kb='))?.split('=')[1] ?? 100);

if (!existsSync(manifestPath)) {
  console.error(`Manifesto não encontrado em ${manifestPath}. Rode "npm run build -w web" antes.`);
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey || !manifest[LANDING]) {
  console.error(`Entrada (${entryKey}) ou chunk da landing (${LANDING}) ausente do manifesto.`);
  process.exit(2);
}

/** Manifest keys reachable through static imports from `roots`. */
function closure(roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key)) continue;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) stack.push(imported);
  }
  return seen;
}

const keys = closure([entryKey, LANDING]);
const files = new Map();
for (const key of keys) {
  const file = manifest[key].file;
  if (file.endsWith('.js')) files.set(file, key);
}
let total = 0;
const rows = [];
for (const [file, key] of files) {
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += gz;
  rows.push({ file, source: key, gzipKB: (gz / 1000).toFixed(2) });
}
rows.sort((a, b) => Number(b.gzipKB) - Number(a.gzipKB));
for (const row of rows) console.info(`${row.gzipKB.padStart(7)} KB  ${row.file}  (${row.source})`);

const leaked = [...keys].filter(
  (key) => FORBIDDEN.some((pattern) => pattern.test(key)) || FORBIDDEN.some((p) => p.test(manifest[key].file)),
);
const totalKb = total / 1000;
console.info(`JS da landing (entrada + rota "/"): ${totalKb.toFixed(2)} KB gzip (limite ${maxKb} KB).`);
let failed = false;
if (leaked.length) {
  console.error(`A landing carrega código do painel/autenticação: ${leaked.join(', ')}`);
  failed = true;
}
if (totalKb > maxKb) {
  console.error(`Acima do orçamento: ${totalKb.toFixed(2)} KB > ${maxKb} KB.`);
  failed = true;
}
process.exit(failed ? 1 : 0);
