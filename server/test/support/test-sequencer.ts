import fs from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The run's file order (vitest.config.ts `sequence.sequencer`): vitest's own — longest first by the durations of the
 * last run in its cache, larger files first where it has none — with the files that start real Carteiro processes
 * (carteiro-process.ts) ahead of everything. Those take a minute or more each; without a cache (CI after `npm ci`
 * wipes node_modules) vitest would order them by size and one could start last, leaving one worker busy while
 * the other idles. First, the two workers finish together.
 */
export default class TestSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const startsProcesses = new Set(sorted.filter((file) => startsCarteiroProcesses(file.moduleId)));
    return [...sorted.filter((file) => startsProcesses.has(file)), ...sorted.filter((f) => !startsProcesses.has(f))];
  }
}

function startsCarteiroProcesses(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').includes('startCarteiroProcess(');
  } catch {
    return false;
  }
}
