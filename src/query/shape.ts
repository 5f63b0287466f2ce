/**
 * The shape of compiled list SQL: what is left of a fragment tree (`where`, `order by`) once
 * its bound values are taken out, and those values in the order Kysely binds them. Two
 * requests of one shape compile to the same SQL text, so the text can be compiled once per
 * shape and only the values bound (db/list-source.ts): Kysely's builder and compiler were
 * most of its share of a list's Node time (issue 27, docs/performance.md).
 *
 * The shape is read from the fragments rather than from the plan because what changes the
 * SQL is decided while compiling (an `in` list's length, `exists=false`, a scope the filters
 * imply, a search's rank): the fragments know by construction. Only the node kinds the
 * query compiler writes are understood; any other makes the tree shapeless (compiled each
 * time), never mis-keyed.
 */
import type { OperationNode, RawNode, ValueNode } from 'kysely';

export interface Shape {
  /** The SQL text of the tree with every bound value as a placeholder. */
  readonly key: string;
  /** The bound values, in the order Kysely's compiler writes them (depth first). */
  readonly values: readonly unknown[];
}

/** Nodes that name things (columns, tables, identifiers) and hold no value. */
const NAMES = new Set(['ReferenceNode', 'ColumnNode', 'TableNode', 'IdentifierNode']);
// Characters no SQL fragment of ours holds: a value, the start and end of a name.
const VALUE = '\u0001';
const NAME = '\u0002';
const END = '\u0003';

function walk(node: OperationNode, parts: string[], values: unknown[]): boolean {
  if (node.kind === 'RawNode') {
    const { sqlFragments, parameters } = node as RawNode;
    for (let i = 0; i < sqlFragments.length; i++) {
      parts.push(sqlFragments[i]!);
      const child = parameters[i];
      if (child !== undefined && !walk(child, parts, values)) return false;
    }
    return true;
  }
  if (node.kind === 'ValueNode') {
    const { value, immediate } = node as ValueNode;
    // An immediate value is written into the SQL: part of the shape, not bound.
    if (immediate) parts.push(NAME, JSON.stringify(value), END);
    else {
      parts.push(VALUE);
      values.push(value);
    }
    return true;
  }
  if (!NAMES.has(node.kind)) return false;
  parts.push(NAME, JSON.stringify(node), END);
  return true;
}

/** The shape of fragment trees written one after the other, or undefined when unknown. */
export function shapeOf(nodes: readonly OperationNode[]): Shape | undefined {
  const parts: string[] = [];
  const values: unknown[] = [];
  for (const node of nodes) {
    if (!walk(node, parts, values)) return undefined;
    parts.push(END);
  }
  return { key: parts.join(''), values };
}

/** The same values, compared as bound: arrays element by element. */
export function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((v, i) => {
    const w = b[i];
    if (Array.isArray(v) && Array.isArray(w)) return sameValues(v, w);
    if (v instanceof Date && w instanceof Date) return v.getTime() === w.getTime();
    return Object.is(v, w);
  });
}

/**
 * A map of at most `max` entries that forgets the least recently used: shapes come from
 * callers' queries, so their number must not grow with them.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly max: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
