/**
 * Every value a client can send has explicit bounds in its route's schema: every integer and
 * number a minimum and a maximum (so nothing past what a column holds reaches the database),
 * every string a maximum length or a pattern/format/enum that bounds it, every array a
 * maximum size. Walks the request schemas of every route in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Node = Record<string, unknown>;

function unbounded(
  node: unknown,
  path: string,
  found: string[],
  doc: Node,
  seen = new Set<unknown>(),
): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  const n = node as Node;
  if (typeof n.$ref === 'string') {
    const name = n.$ref.split('/').pop()!;
    unbounded((doc.components as { schemas: Node }).schemas[name], path, found, doc, seen);
    return;
  }
  const types = ([] as unknown[]).concat(n.type ?? []);
  if (
    (types.includes('integer') || types.includes('number')) &&
    !('const' in n) &&
    !('enum' in n)
  ) {
    if (n.minimum === undefined || n.maximum === undefined)
      found.push(`${path}: ${types.join('|')} without minimum and maximum`);
  }
  if (types.includes('string') && !('const' in n) && !('enum' in n)) {
    const bounded =
      n.maxLength !== undefined ||
      n.format === 'date' ||
      n.format === 'date-time' ||
      (typeof n.pattern === 'string' &&
        n.pattern.startsWith('^') &&
        n.pattern.endsWith('$') &&
        !/[*+]/.test(n.pattern));
    if (!bounded) found.push(`${path}: string without maxLength`);
  }
  if (types.includes('array') && n.maxItems === undefined)
    found.push(`${path}: array without maxItems`);
  if (
    types.includes('object') &&
    n.additionalProperties !== false &&
    n.maxProperties === undefined &&
    !n.properties
  ) {
    found.push(`${path}: open object without maxProperties`);
  }
  for (const key of ['properties', 'patternProperties']) {
    for (const [name, child] of Object.entries((n[key] as Node | undefined) ?? {}))
      unbounded(child, `${path}.${name}`, found, doc, seen);
  }
  for (const key of ['items', 'additionalProperties'])
    if (typeof n[key] === 'object') unbounded(n[key], `${path}[]`, found, doc, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const child of (n[key] as unknown[] | undefined) ?? [])
      unbounded(child, path, found, doc, seen);
}

describe('request schemas', () => {
  it('bound every number, string and array a client can send', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<Node>();
    const found: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Node>)) {
      for (const [method, operation] of Object.entries(item) as [string, Node][]) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const parameter of (operation.parameters as Node[] | undefined) ?? []) {
          unbounded(
            parameter.schema,
            `${where} ${String(parameter.in)}.${String(parameter.name)}`,
            found,
            doc,
          );
        }
        const content = (
          operation.requestBody as { content?: Record<string, { schema: unknown }> } | undefined
        )?.content;
        for (const media of Object.values(content ?? {}))
          unbounded(media.schema, `${where} body`, found, doc);
      }
    }
    expect(found).toEqual([]);
  });
});
