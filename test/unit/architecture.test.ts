/**
 * The shape of the codebase, checked (docs/architecture.md): which folder may import which
 * (every folder and top-level file of src/ has a row), no cycle between folders, other
 * modules reached only through their index.ts, widget/ (the browser's source) on its own,
 * SQL only in repositories, `sql.raw` only in repositories and db/, and transactions opened
 * only through `inTransaction`. Imports are read from the source text (relative specifiers
 * only; packages do not matter here).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');
const WIDGET = path.resolve('widget');

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

/** The layers the wiring (app, cli) builds the application from. */
const BELOW_WIRING = [
  'metrics',
  'config',
  'domain',
  'security',
  'query',
  'db',
  'versions',
  'http',
  'outbox',
  'modules',
  'mail',
  'admin',
];

/**
 * What each layer may import besides itself (modules: other modules' index.ts, see below).
 * Every folder of src/ has a row; a top-level file without one of its own is wiring and
 * answers to `app`'s (layerOf).
 */
const ALLOWED: Record<string, readonly string[]> = {
  config: [],
  domain: [],
  // The process's Prometheus instruments: anything may count, they import nothing of ours.
  metrics: [],
  security: ['domain', 'config'],
  query: ['domain'],
  db: ['domain', 'query'],
  versions: ['domain', 'db'],
  http: ['config', 'domain', 'db', 'query', 'versions', 'security', 'metrics'],
  outbox: ['domain', 'db'],
  modules: [
    'config',
    'domain',
    'db',
    'query',
    'versions',
    'http',
    'security',
    'outbox',
    'modules',
    'metrics',
  ],
  mail: [
    'config',
    'domain',
    'db',
    'query',
    'versions',
    'http',
    'security',
    'modules',
    'outbox',
    'metrics',
  ],
  admin: ['config', 'domain', 'db', 'http', 'security', 'modules'],
  // The checkout widget's server side: its script, CORS and the demo page (over HTTP).
  'checkout-page': ['config', 'domain', 'http'],
  // Wiring: the application, the process around it, the command line.
  app: [...BELOW_WIRING, 'checkout-page'],
  // The process: it hands the command line's commands to the admin socket (cli/commands.ts).
  server: ['config', 'domain', 'db', 'http', 'app', 'cli'],
  cli: [...BELOW_WIRING, 'app'],
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

/** The row of ALLOWED a file answers to. */
function layerOf(file: string): string {
  const unit = unitOf(file);
  if (unit.startsWith('modules/')) return 'modules';
  return unit in ALLOWED || file.includes(path.sep) ? unit : 'app';
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

  it('has a row of layers for every folder of src/', () => {
    const layers = new Set(sourceFiles(SRC).map((file) => layerOf(path.relative(SRC, file))));
    expect([...layers].filter((layer) => !(layer in ALLOWED)).sort()).toEqual([]);
  });

  it('imports only from the layers each folder may use', () => {
    const wrong = edges.filter(({ from, to }) => {
      const [layer, target] = [layerOf(from), layerOf(to)];
      if (unitOf(from) === unitOf(to) || (layer === target && layer !== 'modules')) return false;
      return !ALLOWED[layer]?.includes(target);
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

  it('keeps widget/ (bundled for browsers) to itself', () => {
    const outside = sourceFiles(WIDGET).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(IMPORT)]
        .map((match) => path.resolve(path.dirname(file), match[1]!))
        .filter((target) => !target.startsWith(WIDGET + path.sep))
        .map((target) => `${path.relative(WIDGET, file)} -> ${path.relative(WIDGET, target)}`),
    );
    expect(outside).toEqual([]);
  });

  /** Files of src/ and widget/ (as `widget/...`) whose text matches `pattern`. */
  const matching = (pattern: RegExp) =>
    [
      ...sourceFiles(SRC).map((file) => [file, path.relative(SRC, file)]),
      ...sourceFiles(WIDGET).map((file) => [file, path.relative(path.dirname(WIDGET), file)]),
    ]
      .filter(([full]) => pattern.test(fs.readFileSync(full!, 'utf8')))
      .map(([, name]) => name!);

  it('keeps SQL in repositories', () => {
    const SQL =
      /\b(selectFrom|insertInto|updateTable|deleteFrom)\(|\b(sql|fragment)(<[^>]*>)?`|\bsql\.raw\(/;
    // Repositories, the database layer, the query compiler, and list specs (a field's column
    // may be an expression over the row, e.g. events' `open`).
    const allowed = (file: string) =>
      file.endsWith('.repository.ts') ||
      file.endsWith('.list.ts') ||
      file.startsWith(`db${path.sep}`) ||
      file.startsWith(`query${path.sep}`) ||
      file.startsWith(`cli${path.sep}seed`);
    expect(matching(SQL).filter((file) => !allowed(file))).toEqual([]);
  });

  it("makes the query compiler's fragments from template literals only", () => {
    // A Fragment built by hand would paste its strings as SQL text, as sql.raw does.
    expect(
      matching(/\bnew Fragment\b/).filter((file) => file !== path.join('query', 'fragment.ts')),
    ).toEqual([]);
  });

  it('pastes SQL text (sql.raw) only in repositories and db/', () => {
    // The seeder's bulk load recreates indexes and foreign keys from the definitions the
    // catalogue gives back, which only raw text can carry.
    const allowed = (file: string) =>
      file.endsWith('.repository.ts') ||
      file.startsWith(`db${path.sep}`) ||
      file === path.join('cli', 'seed', 'bulk-load.ts');
    expect(matching(/\bsql\.raw\(/).filter((file) => !allowed(file))).toEqual([]);
  });

  it('opens transactions only through inTransaction', () => {
    // The seeder's bulk load keeps its own (cli/seed/generate.ts says why).
    const allowed = [path.join('db', 'unit-of-work.ts'), path.join('cli', 'seed', 'generate.ts')];
    expect(matching(/\.transaction\(\)/).filter((file) => !allowed.includes(file))).toEqual([]);
  });
});
