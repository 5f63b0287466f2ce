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
import type {
  ColumnNode,
  OperationNodeSource,
  IdentifierNode,
  OperationNode,
  RawNode,
  ReferenceNode,
  SchemableIdentifierNode,
  TableNode,
  ValueNode,
} from 'kysely';
import { Bound, Fragment } from './fragment.js';

export interface Shape {
  /** The SQL text of the tree with every bound value as a placeholder. */
  readonly key: string;
  /** The bound values, in the order Kysely's compiler writes them (depth first). */
  readonly values: readonly unknown[];
}

// Characters no SQL fragment of ours holds: a value, the start and end of a name.
const VALUE = '\u0001';
const NAME = '\u0002';
const END = '\u0003';
// Between the parts of a name.
const PART = '\u0000';
const MARKERS = /[\u0000-\u0003]/;

/**
 * An identifier as a part of a name's text: as it is, or, should it hold one of the
 * markers (no name of ours does), quoted as JSON after VALUE, which no plain part holds.
 */
const part = (name: string) => (MARKERS.test(name) ? VALUE + JSON.stringify(name) : name);

const schemable = (t: SchemableIdentifierNode) =>
  `${t.schema ? part(t.schema.name) : ''}${PART}${part(t.identifier.name)}`;

/**
 * The text a name node (column, table, identifier, `alias.column`) stands for in a shape:
 * its kind and its identifiers, each part in its fixed place (PART between them), so two
 * nodes get one text exactly when they name the same thing. Built by hand because every
 * list request names a dozen columns, and serializing each node whole (as the fallback
 * still does for the rare forms, `alias.*` say) was most of this walk's cost. Undefined
 * for a node that names nothing.
 */
function nameText(node: OperationNode): string | undefined {
  switch (node.kind) {
    case 'IdentifierNode':
      return `I${PART}${part((node as IdentifierNode).name)}`;
    case 'ColumnNode':
      return `C${PART}${part((node as ColumnNode).column.name)}`;
    case 'TableNode':
      return `T${PART}${schemable((node as TableNode).table)}`;
    case 'ReferenceNode': {
      const { table, column } = node as ReferenceNode;
      if (column.kind !== 'ColumnNode') return JSON.stringify(node);
      return `R${PART}${table ? `+${schemable(table.table)}` : '-'}${PART}${part(column.column.name)}`;
    }
    default:
      return undefined;
  }
}

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
  const name = nameText(node);
  if (name === undefined) return false;
  parts.push(NAME, name, END);
  return true;
}

/**
 * A fragment of the query compiler's (query/fragment.ts) as the RawNode it stands for: its
 * strings with each part between them, a Bound or plain value as the ValueNode Kysely's
 * `sql` makes of it, and a Kysely expression (a column made once) as its node.
 */
function walkFragment(fragment: Fragment, parts: string[], values: unknown[]): boolean {
  const { strings, parts: children } = fragment;
  for (let i = 0; i < strings.length; i++) {
    parts.push(strings[i]!);
    if (i >= children.length) continue;
    if (!walkPart(children[i], parts, values)) return false;
  }
  return true;
}

function walkPart(part: unknown, parts: string[], values: unknown[]): boolean {
  if (part instanceof Fragment) return walkFragment(part, parts, values);
  if (part instanceof Bound) {
    // `sql.val` reads an expression or a factory as SQL, not as a value: no shape guessed.
    if (isNodeSource(part.value) || typeof part.value === 'function') return false;
    parts.push(VALUE);
    values.push(part.value);
    return true;
  }
  if (isNodeSource(part)) return walk(part.toOperationNode(), parts, values);
  // A function would be an expression factory to Kysely, not a value.
  if (typeof part === 'function') return false;
  parts.push(VALUE);
  values.push(part);
  return true;
}

/** A Kysely node itself (not a source of one, nor one of the compiler's fragments). */
const isNode = (node: Fragment | OperationNodeSource | OperationNode): node is OperationNode =>
  !(node instanceof Fragment) && !isNodeSource(node);

const isNodeSource = (part: unknown): part is OperationNodeSource =>
  typeof part === 'object' &&
  part !== null &&
  typeof (part as Partial<OperationNodeSource>).toOperationNode === 'function';

/**
 * The text of trees without a bound value, by tree: a fragment made once and shared by
 * every request (a list's `order by`: query/compile.ts) is walked once.
 */
const valueless = new WeakMap<object, string>();

/**
 * The shape of fragments written one after the other (the compiler's own, or any Kysely
 * expression), or undefined when unknown.
 */
export function shapeOf(
  nodes: readonly (Fragment | OperationNodeSource | OperationNode)[],
): Shape | undefined {
  let key = '';
  const values: unknown[] = [];
  for (const node of nodes) {
    let text = valueless.get(node);
    if (text === undefined) {
      const parts: string[] = [];
      const before = values.length;
      const known = isNode(node) ? walk(node, parts, values) : walkPart(node, parts, values);
      if (!known) return undefined;
      parts.push(END);
      text = parts.join('');
      if (values.length === before) valueless.set(node, text);
    }
    key += text;
  }
  return { key, values };
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
 * A map of at most `max` entries that forgets one not used since it was last passed over
 * (the "second chance" or clock approximation of least recently used): shapes come from
 * callers' queries, so their number must not grow with them. A hit only marks its entry;
 * moving it to the end of the map on every hit (exact LRU) was a delete and an insert per
 * list request.
 */
export class BoundedCache<V> {
  readonly #entries = new Map<string, { value: V; used: boolean }>();
  constructor(readonly max: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, used: false });
    while (this.#entries.size > this.max) {
      // The oldest first: a used one goes to the back unmarked, the first unused one goes
      // (never the entry just set).
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      if (!entry.used && oldest !== key) break;
      entry.used = false;
      this.#entries.set(oldest, entry);
    }
  }
}
