// Bundles the server's own code (and the shared workspace) into dist/main.js; node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  alias: { '@carteiro/shared': '../shared/src/index.ts' },
  logLevel: 'warning',
});
