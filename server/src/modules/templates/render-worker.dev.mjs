// Starts render-worker.ts from source (tests, `tsx`): a worker thread does not inherit tsx's loader.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
