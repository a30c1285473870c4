// Starts a worker thread's TypeScript entry from source (tests, `tsx`): a worker thread does not inherit tsx's
// loader. The bundled server starts the compiled entry beside dist/main.js instead (server/build.mjs).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
