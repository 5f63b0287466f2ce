/**
 * Sizes the house keeps (issue 30; docs/architecture.md): no function or closure in src/
 * longer than 200 lines, so every rule can be found in an outline, and app.ts at most 200
 * lines (it registers modules; it does not grow with them). Functions are found with the
 * TypeScript parser, so nested closures count on their own too.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MAX_FUNCTION_LINES = 200;
const MAX_APP_LINES = 200;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every function, method, arrow and closure of a file longer than `max` lines. */
export function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) {
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        found.push(`${file}:${start + 1} ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('code size', () => {
  it(`has no function or closure in src/ longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const long = sourceFiles('src').flatMap((file) =>
      longFunctions(file, fs.readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
    );
    expect(long).toEqual([]);
  });

  it('finds a long closure inside a short factory (the check itself)', () => {
    const body = Array.from({ length: 30 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function outer() {\n  return () => {\n${body}\n  };\n}\n`;
    expect(longFunctions('x.ts', text, 20)).toEqual([
      'x.ts:1 outer (34 lines)',
      'x.ts:2 (anonymous) (32 lines)',
    ]);
  });

  it(`keeps app.ts at most ${MAX_APP_LINES} lines`, () => {
    const lines = fs.readFileSync('src/app.ts', 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(MAX_APP_LINES);
  });
});
