import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyse, boundaryViolations } from './architecture.mjs';

// The boundaries ARCHITECTURE.md states, held by the code: every crossing the analysis finds must be listed under
// "Boundary exceptions" with a reason, and every listed one must still exist (the list only shrinks).
const ROOT = path.resolve(import.meta.dirname, '..');
const SECTIONS = {
  schemaImports: 'Schema imports',
  foreignWrites: 'Foreign writes',
  foreignReads: 'Read models',
  crossFeature: 'Web cross-feature imports',
  moduleCycles: 'Module cycle edges',
} as const;
type Kind = keyof typeof SECTIONS;

/** The entries of one "### <title>" subsection of "## Boundary exceptions": `from → to` and its reason. */
function listedExceptions(markdown: string, title: string): Map<string, string> {
  const part = markdown.split(/^## Boundary exceptions$/m)[1];
  if (part === undefined) throw new Error('ARCHITECTURE.md has no "## Boundary exceptions" section');
  const section = part.split(new RegExp(`^### ${title}$`, 'm'))[1]?.split(/^#{2,3} /m)[0];
  if (section === undefined) throw new Error(`ARCHITECTURE.md has no "### ${title}" under "Boundary exceptions"`);
  const entries = new Map<string, string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('- ')) continue;
    const match = /^- `([^`]+)` → `([^`]+)` — (.*)$/.exec(line);
    if (!match) throw new Error(`malformed exception line in "${title}": ${line}`);
    entries.set(`${match[1]} → ${match[2]}`, match[3].trim());
  }
  return entries;
}

const found = boundaryViolations(analyse(ROOT)) as Record<Kind, string[]>;
const markdown = fs.readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');

describe.each(Object.entries(SECTIONS) as [Kind, string][])('boundary: %s', (kind, title) => {
  const listed = listedExceptions(markdown, title);

  it('every crossing in the code is a listed exception', () => {
    const unlisted = found[kind].filter((entry) => !listed.has(entry));
    expect(
      unlisted,
      `new boundary crossings (call the owner's function, or list them in ARCHITECTURE.md "${title}" with a reason)`,
    ).toEqual([]);
  });

  it('every listed exception still exists in the code (remove the line once it is gone)', () => {
    const stale = [...listed.keys()].filter((entry) => !found[kind].includes(entry));
    expect(stale, `ARCHITECTURE.md "${title}" lists crossings the code no longer has`).toEqual([]);
  });

  it('every listed exception gives its reason', () => {
    expect([...listed].filter(([, reason]) => reason.length === 0).map(([entry]) => entry)).toEqual([]);
  });
});

describe('server imports', () => {
  // A file cycle is two rules that need each other; it is broken by moving the shared piece down or by passing it
  // in (dependency inversion), never tolerated (it hides which module owns a rule and breaks partial loading).
  it('no server source file reaches itself through its imports', () => {
    expect(analyse(ROOT).fileCycles, 'server file import cycles').toEqual([]);
  });
});

describe('server composition roots', () => {
  // app.ts, runtime.ts, main.ts and worker/ wire the modules together and pass a lower module what it needs of a
  // higher one; a module importing them would hide an upward call behind the wiring.
  it('no module imports worker/, app.ts, runtime.ts or main.ts at runtime', () => {
    expect(analyse(ROOT).compositionImports, 'module files importing a composition root').toEqual([]);
  });
});

describe('web shared code', () => {
  // lib/, components/ and stores/ are what features share; a feature import there would hide a feature's code
  // under a shared name. No exceptions: compose features in app/ instead.
  it('imports no feature outside the route layer (app/)', () => {
    expect(analyse(ROOT).sharedToFeature, 'web files outside features/ and app/ importing a feature').toEqual([]);
  });
});

describe('the analysis finds each kind of crossing', () => {
  // A small tree with one crossing of each kind and one allowed reference, so a regression in the analysis itself
  // (the test above would then pass on anything) fails here.
  const root = fs.mkdtempSync(path.join(tmpdir(), 'carteiro-architecture-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write(
    'server/src/modules/owner/owner.db.ts',
    "export const ownerItems = pgTable('owner_items', {});\nexport const ownerNotes = pgTable('owner_notes', {});\n",
  );
  write('server/src/modules/other/other.db.ts', "import { ownerItems } from '../owner/owner.db';\n");
  write(
    'server/src/modules/other/use-owner.ts',
    [
      "import { ownerItems } from '../owner/owner.db';",
      'export const a = (db) => db.insert(ownerItems).values({});',
      'export const b = (db) => db.execute(sql`update owner_notes set x = 1`);',
      // A statement's text after a nested template is still its own.
      `export const c = (db, f) => db.execute(sql\`select * from owner_items \${f ? sql\`where true\` : sql\`\`} join owner_notes n on true\`);`,
    ].join('\n'),
  );
  write(
    'server/src/modules/owner/owner.ts',
    [
      "import { a } from '../other/use-owner';",
      "import { t } from '../third/third';",
      'export const d = (db) => db.execute(sql`delete from owner_items`);',
    ].join('\n'),
  );
  // third → owner only by types and by a foreign key: no runtime edge back, so no cycle through third.
  write(
    'server/src/modules/third/third.ts',
    "import type { b } from '../owner/b';\nimport { type a, type b } from '../owner/a';\nexport const t = 1;\n",
  );
  write(
    'server/src/modules/third/wired.ts',
    "import { run } from '../../worker/engine';\nimport type { App } from '../../app';\n",
  );
  write('server/src/worker/engine.ts', 'export const run = 1;\n');
  write('server/src/modules/third/third.db.ts', "import { ownerItems } from '../owner/owner.db';\n");
  write('server/src/modules/owner/a.ts', "import { b } from './b';\nexport const a = () => b;\n");
  write('server/src/modules/owner/b.ts', "import type { a } from './a';\nexport const b: typeof a | null = null;\n");
  write('web/src/features/one/page.tsx', "import { Thing } from '@/features/two/thing';\nimport { x } from './x';\n");
  write('web/src/features/one/x.ts', 'export const x = 1;\n');
  write('web/src/features/two/thing.tsx', "import { y } from '../one/x';\nexport const Thing = y;\n");
  write('web/src/lib/shared.ts', "import { x } from '@/features/one/x';\nexport const s = x;\n");
  write('web/src/app/routes.tsx', "import { Thing } from '@/features/two/thing';\nexport const r = Thing;\n");
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reports schema imports, writes by Drizzle and by SQL, cross-feature imports, module and file cycles — and nothing else', () => {
    const report = analyse(root);
    expect(boundaryViolations(report)).toEqual({
      schemaImports: ['other/use-owner.ts → owner/owner.db.ts'],
      foreignWrites: ['other/use-owner.ts → owner_items', 'other/use-owner.ts → owner_notes'],
      foreignReads: ['other/use-owner.ts → owner_items', 'other/use-owner.ts → owner_notes'],
      crossFeature: ['one/page.tsx → two/thing.tsx', 'two/thing.tsx → one/x.ts'],
      moduleCycles: ['other → owner', 'owner → other'],
    });
    expect(report.moduleCycles).toEqual([['other', 'owner']]);
    expect(report.compositionImports).toEqual([
      { file: 'server/src/modules/third/wired.ts', imports: 'server/src/worker/engine.ts' },
    ]);
    expect(report.featureCycles).toEqual([['one', 'two']]);
    expect(report.sharedToFeature).toEqual([{ file: 'web/src/lib/shared.ts', imports: 'web/src/features/one/x.ts' }]);
    expect(report.fileCycles).toEqual([['server/src/modules/owner/a.ts', 'server/src/modules/owner/b.ts']]);
  });
});

// Response types are defined once in shared/ (shared/src/api/<area>.ts, or beside the area's request schemas in
// shared/src/schemas/) and imported by the server, which returns them, and by the web: a second copy in the web
// drifts from what the server sends. The web's API layer therefore declares no type of its own, except these.
const WEB_API_TYPE_EXCEPTIONS: Readonly<Record<string, string>> = {
  'web/src/features/auth/api/sign-in.ts: SignInInput':
    "request body of better-auth's own endpoint; the server keeps no schema of it to share",
  'web/src/lib/queries/auth.ts: SignUpInput':
    "request body of better-auth's own endpoint; the server keeps no schema of it to share",
  'web/src/lib/queries/contacts.ts: ContactFilter': "the contacts page's filter, derived from shared's ContactQuery",
};

/** Every `interface X` / `type X =` declared (exported or not) in the web's API layer, as "file: X". */
function webApiTypeDeclarations(): string[] {
  const web = path.join(ROOT, 'web/src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(full);
    }
  };
  const features = path.join(web, 'features');
  for (const feature of fs.readdirSync(features)) {
    if (fs.existsSync(path.join(features, feature, 'api'))) walk(path.join(features, feature, 'api'));
    if (fs.existsSync(path.join(features, feature, 'api.ts'))) files.push(path.join(features, feature, 'api.ts'));
  }
  walk(path.join(web, 'lib/queries'));
  return files.flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/^(?:export )?(?:interface|type) (\w+)/gm)].map(
      (match) => `${path.relative(ROOT, file)}: ${match[1]}`,
    ),
  );
}

describe('web response types', () => {
  const declared = webApiTypeDeclarations();

  it('the web API layer (features/*/api, lib/queries) declares no response type: it imports it from shared/', () => {
    expect(declared.filter((entry) => !(entry in WEB_API_TYPE_EXCEPTIONS))).toEqual([]);
  });

  it('every listed exception still exists (remove the line once it is gone)', () => {
    expect(Object.keys(WEB_API_TYPE_EXCEPTIONS).filter((entry) => !declared.includes(entry))).toEqual([]);
  });
});
