/**
 * Module surfaces hand out views in the domain's words, never table rows (issue 30;
 * docs/architecture.md). The compiler's own types are walked from every export of every
 * src/modules/<name>/index.ts: facades' parameters and results, module factories, types, their
 * properties and type arguments. A type named `*Row` or `*Table`, `Selectable<...>`, or an
 * object with a snake_case member (a row by shape, as a repository's select returns it) is
 * named with the path that reaches it. The database handle a facade takes (`Db`, `Executor`,
 * `Tx`) is not walked: it is how the call runs, not what crosses.
 */
import path from 'node:path';
import fs from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROW_NAME = /Row$|Table$|^Selectable$/;
const SNAKE_CASE = /^[a-z]+(_[a-z]+)+$/;
const NOT_WALKED = new Set(['Db', 'DB', 'Kysely', 'Transaction', 'Executor', 'Tx', 'BatchTx']);
const MAX_DEPTH = 6;

function rowsOnSurfaces(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    'tsconfig.json',
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  )!;
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const found = new Set<string>();
  for (const name of fs.readdirSync('src/modules')) {
    const source = program.getSourceFile(path.resolve('src/modules', name, 'index.ts'));
    if (!source) continue;
    for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.declarations?.[0];
      if (!declaration) continue;
      const seen = new Set<ts.Type>();
      const walk = (type: ts.Type, trail: string, depth: number): void => {
        if (depth > MAX_DEPTH || seen.has(type)) return;
        seen.add(type);
        const named = type.aliasSymbol ?? type.getSymbol();
        if (NOT_WALKED.has(named?.name ?? '')) return;
        for (const n of [type.aliasSymbol?.name, type.getSymbol()?.name])
          if (n && ROW_NAME.test(n)) found.add(`${trail}: ${n}`);
        for (const a of type.aliasTypeArguments ?? []) walk(a, `${trail}<>`, depth + 1);
        if (type.isUnionOrIntersection()) type.types.forEach((t) => walk(t, trail, depth + 1));
        if (type.flags & ts.TypeFlags.Object && (type as ts.TypeReference).target)
          for (const a of checker.getTypeArguments(type as ts.TypeReference))
            walk(a, `${trail}<>`, depth + 1);
        // Library types (Map, Promise, Kysely's, Fastify's) are walked through their type
        // arguments only.
        if (named?.declarations?.[0]?.getSourceFile().fileName.includes('node_modules')) return;
        for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
          walk(signature.getReturnType(), `${trail}()`, depth + 1);
          for (const p of signature.getParameters())
            walk(checker.getTypeOfSymbol(p), `${trail}(${p.name})`, depth + 1);
        }
        if (!(type.flags & ts.TypeFlags.Object)) return;
        for (const property of type.getProperties()) {
          if (SNAKE_CASE.test(property.name)) found.add(`${trail}.${property.name}: snake_case`);
          walk(checker.getTypeOfSymbol(property), `${trail}.${property.name}`, depth + 1);
        }
      };
      const type =
        symbol.flags & ts.SymbolFlags.Type && !(symbol.flags & ts.SymbolFlags.Value)
          ? checker.getDeclaredTypeOfSymbol(symbol)
          : checker.getTypeOfSymbolAtLocation(symbol, declaration);
      walk(type, `modules/${name} ${exported.name}`, 0);
    }
  }
  return [...found].sort();
}

describe('module surfaces', () => {
  it('hand out no table row, by name or by shape', { timeout: 180_000 }, () => {
    expect(rowsOnSurfaces()).toEqual([]);
  });
});
