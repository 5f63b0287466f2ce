/**
 * The shape of the codebase, checked (docs/architecture.md): which folder may import which,
 * no cycle between folders, other modules reached only through their index.ts, and SQL only
 * in repositories. Imports are read from the source text (relative specifiers only; packages
 * do not matter here).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g;

interface Edge {
  from: string;
  to: string;
}

/** Files as paths relative to src/ with their relative imports resolved the same way. */
const edges: Edge[] = sourceFiles(SRC).flatMap((file) => {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((match) => ({
    from: path.relative(SRC, file),
    to: path.relative(SRC, path.resolve(path.dirname(file), match[1]!)).replace(/\.js$/, '.ts'),
  }));
});

/**
 * The unit a file belongs to: `modules/<name>`, a top-level folder, or the file itself for
 * src/*.ts (`config`, `app`, `server`; `cli.ts` belongs with `cli/`).
 */
function unitOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length === 1 ? parts[0]!.replace(/\.ts$/, '') : parts[0]!;
}

/** What each unit may import besides itself (modules: other modules' index.ts, see below). */
const ALLOWED: Record<string, readonly string[]> = {
  config: [],
  domain: [],
  security: ['domain', 'config'],
  query: ['domain'],
  db: ['domain', 'query'],
  versions: ['domain', 'db'],
  http: ['config', 'domain', 'db', 'query', 'versions', 'security'],
  outbox: ['domain', 'db'],
  modules: ['config', 'domain', 'db', 'query', 'versions', 'http', 'security', 'outbox', 'modules'],
  mail: ['config', 'domain', 'db', 'query', 'versions', 'http', 'security', 'modules', 'outbox'],
  admin: ['config', 'domain', 'db', 'http', 'security', 'modules'],
};

function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return undefined;
}

describe('architecture', () => {
  it('has no cycle between folders', () => {
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      const [a, b] = [unitOf(from), unitOf(to)];
      if (a === b) continue;
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
    expect(findCycle(graph)).toBeUndefined();
  });

  it('imports only from the layers each folder may use', () => {
    const wrong = edges.filter(({ from, to }) => {
      const [a, b] = [unitOf(from), unitOf(to)];
      const layer = a.startsWith('modules/') ? 'modules' : a;
      const target = b.startsWith('modules/') ? 'modules' : b;
      const allowed = ALLOWED[layer];
      return a !== b && allowed !== undefined && !allowed.includes(target);
    });
    expect(wrong.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('reaches another module only through its index.ts', () => {
    const wrong = edges.filter(({ from, to }) => {
      const target = unitOf(to);
      return (
        target.startsWith('modules/') &&
        unitOf(from) !== target &&
        to !== path.join(target, 'index.ts')
      );
    });
    expect(wrong.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('keeps SQL in repositories', () => {
    const SQL = /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^>]*>)?`/;
    // Repositories, the database layer, the query compiler, and list specs (a field's column
    // may be an expression over the row, e.g. events' `open`).
    const allowed = (file: string) =>
      file.endsWith('.repository.ts') ||
      file.endsWith('.list.ts') ||
      file.startsWith(`db${path.sep}`) ||
      file.startsWith(`query${path.sep}`) ||
      file.startsWith(`cli${path.sep}seed`);
    const offenders = sourceFiles(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => !allowed(file) && SQL.test(fs.readFileSync(path.join(SRC, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
