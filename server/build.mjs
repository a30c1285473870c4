// Bundles the server's own code (and the shared workspace) into dist/main.js, and each worker thread's code into
// its own file beside it (threads/worker-entry.ts finds them there): the template render thread and the DKIM
// signing thread; node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: {
    main: 'src/main.ts',
    'render-worker': 'src/modules/templates/render-worker.ts',
    'dkim-sign-worker': 'src/modules/sending/dkim/dkim-sign-worker.ts',
  },
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
