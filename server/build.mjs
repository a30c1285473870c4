// Bundles the server's own code (and the shared workspace) into dist/main.js, and the template render thread into
// dist/render-worker.js (untrusted-render.ts starts it beside main.js); node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/main.ts', 'render-worker': 'src/modules/templates/render-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  alias: { '@carteiro/shared': '../shared/src/index.ts' },
  logLevel: 'warning',
});
