#!/usr/bin/env node
// The module map, read from the code: which server module owns which table (its `*.db.ts` pgTable calls), which
// files import another module's schema, which raw SQL writes or reads another module's tables, the module import
// graph and its cycles, and the web features that import each other. `npm run check:architecture` prints it;
// `scripts/architecture.test.ts` holds the code to the rules ARCHITECTURE.md states.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function walk(dir, keep) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      out.push(...walk(full, keep));
    } else if (keep(full)) out.push(full);
  }
  return out;
}

const isSource = (file) => /\.(ts|tsx)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes('/testing/');

/**
 * Import specifiers of a file (static `import`/`export … from '…'`, side-effect `import '…'`, `import('…')`),
 * relative ones resolved to absolute paths. `typeOnly` marks what vanishes at runtime: `import type`/`export type`,
 * a braced list whose every name is `type X`, and `typeof import('…')`.
 */
function importsOf(root, file, text) {
  const specs = [];
  for (const match of text.matchAll(/\b(?:import|export)\s+(type\s+)?([^;'"`]*?)\s*from\s+['"]([^'"]+)['"]/g)) {
    const names = /^\{([^}]*)\}$/.exec(match[2].trim());
    const listed = names?.[1]
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const typeOnly =
      Boolean(match[1]) || (listed !== undefined && listed.length > 0 && listed.every((n) => /^type\s/.test(n)));
    specs.push({ spec: match[3], typeOnly });
  }
  for (const match of text.matchAll(/(^|[^\w.])import\s+['"]([^'"]+)['"]/g))
    specs.push({ spec: match[2], typeOnly: false });
  for (const match of text.matchAll(/(\btypeof\s+)?\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g))
    specs.push({ spec: match[2], typeOnly: Boolean(match[1]) });
  return specs.map(({ spec, typeOnly }) => {
    const aliased = spec.startsWith('@/') ? path.join(root, 'web/src', spec.slice(2)) : null;
    if (!spec.startsWith('.') && !aliased) return { spec, typeOnly, resolved: null };
    const base = aliased ?? path.resolve(path.dirname(file), spec);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
    return { spec, typeOnly, resolved: candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? base };
  });
}

/** The server module a file belongs to (`modules/<name>/…`), or null. */
function moduleOf(root, file) {
  const rel = path.relative(path.join(root, 'server/src/modules'), file);
  if (rel.startsWith('..')) return null;
  return rel.split(path.sep)[0];
}

function featureOf(root, file) {
  const rel = path.relative(path.join(root, 'web/src/features'), file);
  if (rel.startsWith('..')) return null;
  return rel.split(path.sep)[0];
}

/**
 * The static text of every sql`…` template (its parts between `${…}` joined by a space), the nested ones each on
 * their own: enough to find what a statement inserts into, updates, deletes from, and reads. A template is read
 * with its nesting (`${cond ? sql`…` : sql``}` inside another), so a statement's text after a nested template is
 * still its own.
 */
function sqlStatements(text) {
  const out = [];
  for (const start of text.matchAll(/\bsql`/g)) {
    const parts = [];
    let i = start.index + start[0].length;
    let part = '';
    // Inside the template: collect text until its closing backtick; a `${` is skipped over, with the code in it
    // (its strings, braces and own templates) read only to find where it ends.
    while (i < text.length && text[i] !== '`') {
      if (text[i] === '\\') {
        part += text.slice(i, i + 2);
        i += 2;
      } else if (text.startsWith('${', i)) {
        parts.push(part);
        part = '';
        i = skipExpression(text, i + 2);
      } else part += text[i++];
    }
    parts.push(part);
    out.push(parts.join(' '));
  }
  return out;
}

/** The index after the `}` that closes a template's `${` whose code starts at `i`. */
function skipExpression(text, i) {
  let depth = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      i += 1;
      while (i < text.length && text[i] !== ch) i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (ch === '`') {
      i += 1;
      while (i < text.length && text[i] !== '`') {
        if (text[i] === '\\') i += 2;
        else if (text.startsWith('${', i)) i = skipExpression(text, i + 2);
        else i += 1;
      }
      i += 1;
    } else if (ch === '{') {
      depth += 1;
      i += 1;
    } else if (ch === '}') {
      if (depth === 0) return i + 1;
      depth -= 1;
      i += 1;
    } else i += 1;
  }
  return i;
}

/** The composition roots: what starts a process and wires the modules. A module never imports them. */
const COMPOSITION = /^server\/src\/(worker\/|(app|runtime|main)\.ts$)/;

const WRITE = /\b(insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)/gi;
const READ = /\b(from|join)\s+([a-z_][a-z0-9_]*)/gi;

/** Strongly connected components of a directed graph (Tarjan), only those with more than one node. */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indices = new Map();
  const low = new Map();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indices.get(next)));
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** The file → file runtime imports that run between two modules of the same strongly connected component. */
function moduleCycleEdges(components, edges) {
  const component = new Map();
  for (const [i, members] of components.entries()) for (const m of members) component.set(m, i);
  return edges.filter((e) => component.has(e.module) && component.get(e.module) === component.get(e.target));
}

export function analyse(root = ROOT) {
  const serverFiles = walk(path.join(root, 'server/src'), isSource);
  // Table → owning module, from the pgTable declarations of each module's *.db.ts files.
  const owner = new Map();
  // The Drizzle object's name → its table's name (`authSessions` → `auth_sessions`), so every write is reported by
  // the table's SQL name whether it goes through Drizzle or raw SQL.
  const tableOfExport = new Map();
  for (const file of serverFiles.filter((f) => f.endsWith('.db.ts'))) {
    const mod = moduleOf(root, file);
    if (!mod) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/pgTable\(\s*['"]([a-z0-9_]+)['"]/g)) owner.set(match[1], mod);
    for (const match of text.matchAll(/export\s+const\s+([A-Za-z0-9_$]+)\s*=\s*pgTable\(\s*['"]([a-z0-9_]+)['"]/g))
      tableOfExport.set(match[1], match[2]);
  }

  const schemaImports = [];
  const foreignWrites = [];
  const foreignReads = [];
  const moduleGraph = new Map();
  const moduleEdges = [];
  const compositionImports = [];
  const fileGraph = new Map();
  for (const file of serverFiles) {
    const text = fs.readFileSync(file, 'utf8');
    const mod = moduleOf(root, file);
    const rel = path.relative(root, file);
    fileGraph.set(rel, new Set());
    if (mod && !moduleGraph.has(mod)) moduleGraph.set(mod, new Set());
    for (const { resolved, typeOnly } of importsOf(root, file, text)) {
      if (!resolved) continue;
      const target = moduleOf(root, resolved);
      if (resolved.endsWith('.ts') || resolved.endsWith('.tsx')) fileGraph.get(rel).add(path.relative(root, resolved));
      if (mod && !typeOnly && COMPOSITION.test(path.relative(root, resolved)))
        compositionImports.push({ file: rel, imports: path.relative(root, resolved) });
      if (!mod || !target || target === mod) continue;
      // Only runtime imports tie modules together: a type-only one vanishes when the code is compiled, and a
      // `*.db.ts` naming another's column for a foreign key is the schema's one graph of tables (db/schema.ts), which
      // points the way the data does and carries no behaviour.
      const foreignKey = file.endsWith('.db.ts') && resolved.endsWith('.db.ts');
      if (!typeOnly && !foreignKey) {
        moduleGraph.get(mod).add(target);
        moduleEdges.push({ file: rel, module: mod, imports: path.relative(root, resolved), target });
      }
      if (resolved.endsWith('.db.ts'))
        schemaImports.push({ file: rel, module: mod, imports: path.relative(root, resolved) });
    }
    // Drizzle writes through another module's table objects: .insert(x) / .update(x) / .delete(x).
    if (mod) {
      for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+\.db)['"]/g)) {
        const target = moduleOf(root, path.resolve(path.dirname(file), match[2]));
        if (!target || target === mod) continue;
        for (const name of match[1]
          .split(',')
          .map((n) =>
            n
              .trim()
              .split(/\s+as\s+/)
              .pop(),
          )
          .filter(Boolean)) {
          if (new RegExp(`\\.(insert|update|delete)\\(\\s*${name}\\b`).test(text))
            foreignWrites.push({ file: rel, module: mod, table: tableOfExport.get(name) ?? name, owner: target });
        }
      }
    }
    if (!mod) continue;
    for (const statement of sqlStatements(text)) {
      for (const match of statement.matchAll(WRITE)) {
        const table = match[2].toLowerCase();
        const tableOwner = owner.get(table);
        if (tableOwner && tableOwner !== mod) foreignWrites.push({ file: rel, module: mod, table, owner: tableOwner });
      }
      for (const match of statement.matchAll(READ)) {
        const table = match[2].toLowerCase();
        const tableOwner = owner.get(table);
        if (tableOwner && tableOwner !== mod) foreignReads.push({ file: rel, module: mod, table, owner: tableOwner });
      }
    }
  }
  for (const targets of [...moduleGraph.values()])
    for (const t of targets) if (!moduleGraph.has(t)) moduleGraph.set(t, new Set());

  const moduleCycles = cycles(moduleGraph);

  const webFiles = walk(path.join(root, 'web/src'), isSource);
  const crossFeature = [];
  const featureGraph = new Map();
  // What several features share (lib/, components/, stores/, test/) sits under them: it imports no feature. Only the
  // route layer (app/) composes features.
  const sharedToFeature = [];
  for (const file of webFiles) {
    const feature = featureOf(root, file);
    if (!feature) {
      if (path.relative(path.join(root, 'web/src'), file).startsWith(`app${path.sep}`)) continue;
      for (const { resolved } of importsOf(root, file, fs.readFileSync(file, 'utf8')))
        if (resolved && featureOf(root, resolved))
          sharedToFeature.push({ file: path.relative(root, file), imports: path.relative(root, resolved) });
      continue;
    }
    for (const { resolved } of importsOf(root, file, fs.readFileSync(file, 'utf8'))) {
      if (!resolved) continue;
      const target = featureOf(root, resolved);
      if (!target || target === feature) continue;
      crossFeature.push({ file: path.relative(root, file), feature, imports: path.relative(root, resolved) });
      if (!featureGraph.has(feature)) featureGraph.set(feature, new Set());
      featureGraph.get(feature).add(target);
    }
  }

  return {
    owner,
    schemaImports,
    foreignWrites,
    foreignReads,
    moduleGraph,
    moduleCycles,
    compositionImports,
    moduleCycleEdges: moduleCycleEdges(moduleCycles, moduleEdges),
    fileCycles: cycles(fileGraph),
    crossFeature,
    featureCycles: cycles(featureGraph),
    sharedToFeature,
  };
}

/**
 * The boundary rules ARCHITECTURE.md states, as entries `from → to` (paths relative to server/src/modules/ or
 * web/src/features/, tables by their SQL name), deduplicated and sorted:
 * - `schemaImports`: a module imports another module's `*.db.ts` — except a `*.db.ts` importing another for a
 *   foreign-key reference, which Drizzle needs;
 * - `foreignWrites`: a module inserts, updates or deletes rows of a table another module owns;
 * - `foreignReads`: a module's raw SQL (`sql\`…\``) reads a table another module owns (`from`/`join` it);
 * - `crossFeature`: a web feature imports a file of another feature;
 * - `moduleCycles`: a runtime import from one server module to another that lies on a cycle of the module graph,
 *   as `from-module → to-module`.
 */
export function boundaryViolations(report) {
  const server = (file) => file.replace(/^server\/src\/modules\//, '');
  const web = (file) => file.replace(/^web\/src\/features\//, '');
  const entries = (rows) => [...new Set(rows)].sort();
  return {
    schemaImports: entries(
      report.schemaImports
        .filter((r) => !r.file.endsWith('.db.ts'))
        .map((r) => `${server(r.file)} → ${server(r.imports)}`),
    ),
    foreignWrites: entries(report.foreignWrites.map((r) => `${server(r.file)} → ${r.table}`)),
    foreignReads: entries(report.foreignReads.map((r) => `${server(r.file)} → ${r.table}`)),
    crossFeature: entries(report.crossFeature.map((r) => `${web(r.file)} → ${web(r.imports)}`)),
    moduleCycles: entries(report.moduleCycleEdges.map((r) => `${r.module} → ${r.target}`)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const report = analyse();
  const unique = (rows, key) => new Set(rows.map((r) => r[key])).size;
  const verbose = process.argv.includes('--verbose');
  const show = (title, rows, format) => {
    console.info(`\n${title}: ${rows.length}`);
    if (verbose) for (const row of rows) console.info(`  ${format(row)}`);
  };
  console.info(`tables: ${report.owner.size}, owned by ${new Set(report.owner.values()).size} modules`);
  show(
    `files importing another module's *.db.ts (${unique(report.schemaImports, 'file')} files)`,
    report.schemaImports,
    (r) => `${r.file} → ${r.imports}`,
  );
  show(
    `writes to another module's table (SQL or Drizzle) (${unique(report.foreignWrites, 'file')} files)`,
    report.foreignWrites,
    (r) => `${r.file}: ${r.table} (${r.owner})`,
  );
  show(
    `raw SQL reads of another module's table (${unique(report.foreignReads, 'file')} files)`,
    report.foreignReads,
    (r) => `${r.file}: ${r.table} (${r.owner})`,
  );
  show('server module cycles (runtime imports)', report.moduleCycles, (c) => `${c.length} modules: ${c.join(', ')}`);
  show(
    `runtime imports inside those cycles (${new Set(report.moduleCycleEdges.map((e) => `${e.module}→${e.target}`)).size} module edges)`,
    report.moduleCycleEdges,
    (e) => `${e.file} → ${e.imports}`,
  );
  show('server modules importing a composition root', report.compositionImports, (r) => `${r.file} → ${r.imports}`);
  show('server file cycles', report.fileCycles, (c) => `${c.length} files: ${c.join(', ')}`);
  show(
    `web imports across features (${unique(report.crossFeature, 'file')} files)`,
    report.crossFeature,
    (r) => `${r.file} → ${r.imports}`,
  );
  show('web feature cycles', report.featureCycles, (c) => c.join(', '));
  show('web lib/components/stores importing a feature', report.sharedToFeature, (r) => `${r.file} → ${r.imports}`);
  if (process.argv.includes('--entries')) {
    // The boundary entries in ARCHITECTURE.md's format ("Boundary exceptions"), to add a reason to and paste.
    for (const [kind, rows] of Object.entries(boundaryViolations(report))) {
      console.info(`\n${kind}:`);
      for (const row of rows) console.info(`- \`${row.replace(' → ', '` → `')}\` — `);
    }
  }
}
