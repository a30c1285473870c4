import { fileURLToPath } from 'node:url';

/**
 * Where a worker thread's code is: the compiled `<name>.js` beside the bundled dist/main.js (server/build.mjs
 * lists each as an entry point), or, when the server runs from source (tests, tsx), the TypeScript file started
 * through ts-worker.dev.mjs. `sourceUrl` is the entry's .ts URL relative to the calling module.
 */
export function workerEntry(
  callerUrl: string,
  name: string,
  sourceUrl: URL,
): { entry: URL; workerData: { entry?: string } } {
  if (callerUrl.endsWith('.ts')) {
    return {
      entry: new URL('./ts-worker.dev.mjs', import.meta.url),
      workerData: { entry: fileURLToPath(sourceUrl) },
    };
  }
  return { entry: new URL(`./${name}.js`, callerUrl), workerData: {} };
}
