import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // One module graph per worker, file after file: a fresh jsdom process and app import per file cost ~4× the
    // project's time (76.7 → 19.3 s wall, CPU 0.23×, docs/benchmarks.md). setup.ts resets the module registry
    // before each file, so the app's module state (catalogues, public configuration, API client) starts afresh.
    isolate: false,
  },
});
