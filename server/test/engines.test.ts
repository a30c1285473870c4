import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

/**
 * Runtime dependencies whose own `engines.node` excludes the oldest Node we promise, each checked and decided in
 * ADR 0013 (they are exercised on that Node by the whole suite in CI). Anything new here is a decision to make,
 * not a line to add: the test fails until the ADR says why.
 */
const KNOWN_EXCEPTIONS: Record<string, string> = {
  // No pg-boss ≥ 11 declares Node 20; 10.4.2 (Node ≥ 20) has no PGlite backend (fromPglite), our default mode.
  'pg-boss': '12.35.0',
};

function runtimeDependencies(): string[] {
  const names = new Set<string>();
  for (const ws of ['server', 'shared']) {
    const pkg = readJson(path.join(ROOT, ws, 'package.json'));
    for (const name of Object.keys((pkg.dependencies as Record<string, string>) ?? {})) {
      if (!name.startsWith('@carteiro/')) names.add(name);
    }
  }
  return [...names].sort();
}

describe('engines.node honesty (ADR 0013)', () => {
  const root = readJson(path.join(ROOT, 'package.json'));
  const promised = (root.engines as { node: string }).node;
  const oldest = semver.minVersion(promised)?.version as string;

  it('README promises the same Node as package.json engines, and this process runs on it', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`Node.js ≥ ${promised.replace('>=', '')}`);
    expect(semver.satisfies(process.versions.node, promised)).toBe(true);
  });

  it('every runtime dependency declares support for the oldest promised Node, except the documented ones', () => {
    const excluded: Record<string, string> = {};
    for (const name of runtimeDependencies()) {
      // The installed copy npm resolves for the server workspace (hoisted to the root unless it conflicts).
      const file = [
        path.join(ROOT, 'server', 'node_modules', name, 'package.json'),
        path.join(ROOT, 'node_modules', name, 'package.json'),
      ].find((f) => fs.existsSync(f));
      if (!file) throw new Error(`${name} is not installed`);
      const pkg = readJson(file) as { version: string; engines?: { node?: string } };
      const range = pkg.engines?.node;
      if (range && !semver.satisfies(oldest, range)) excluded[name] = pkg.version;
    }
    expect(excluded).toEqual(KNOWN_EXCEPTIONS);
  });
});
