/**
 * How big a valid body can be, read off a route's body schema: an upper bound of its
 * compact JSON size in bytes, of the number of values in it (what a walk over the parsed
 * body visits) and of its nesting depth. From these come the route's body limit (refused
 * with 413 before the body is read or parsed) and the walk budget of input-text.ts
 * (docs/security.md, "Request bodies"). Pure functions: computed once per route.
 */

export interface BodyBounds {
  /** Largest compact JSON text of a valid body (Infinity: the schema does not bound it). */
  bytes: number;
  /** Most values (objects, arrays, scalars, not keys) in a valid body. */
  nodes: number;
  /** Most object members (keys) in a valid body: JSON.parse pays most for new key names. */
  keys: number;
  /** Deepest nesting of a valid body: a scalar is 0, `{"a":1}` is 1. */
  depth: number;
}

export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  maxLength?: number;
  pattern?: string;
  format?: string;
  maxItems?: number;
  items?: SchemaNode | SchemaNode[];
  prefixItems?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  propertyNames?: SchemaNode;
  maxProperties?: number;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

/** A named schema by its `$ref` (`Schedule#`), or undefined when unknown. */
export type Resolve = (ref: string) => SchemaNode | undefined;

const UNBOUNDED: BodyBounds = { bytes: Infinity, nodes: Infinity, keys: Infinity, depth: Infinity };

/**
 * A character of a JSON string may be sent as a `\uXXXX` escape: six bytes for each
 * character the schema counts. Bounds must hold for any valid text, not only the usual one.
 */
const BYTES_PER_CHAR = 6;
/** Longest JSON number text a client sends for a number in range (`-1.2345678901234567e-308`). */
const NUMBER_BYTES = 24;
/** ajv-formats' date-time allows any number of fractional digits: assume a sane 64. */
const FORMAT_LENGTH: Record<string, number> = { date: 10, time: 32, 'date-time': 64 };

const stringBytes = (chars: number) => 2 + chars * BYTES_PER_CHAR;
const SCALAR = (bytes: number): BodyBounds => ({ bytes, nodes: 1, keys: 0, depth: 0 });

/**
 * The longest text an anchored pattern (`^...$`) can match, or Infinity when it has no
 * such bound (`*`, `+`, `{n,}`, or not anchored at both ends). Reads the subset of regular
 * expressions schemas use: literals, escapes, classes, groups, alternation, lookarounds
 * (which match no text), and `?`, `{n}`, `{n,m}` quantifiers.
 */
export function patternLength(pattern: string): number {
  // Anchored as a whole: `^a|b$` is two half-anchored branches and bounds nothing.
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) {
    return Infinity;
  }
  let at = 0;
  const alternation = (): number => {
    let longest = sequence();
    while (pattern[at] === '|') {
      at++;
      longest = Math.max(longest, sequence());
    }
    return longest;
  };
  const sequence = (): number => {
    let total = 0;
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const length = atom();
      const times = quantifier();
      if (length > 0) total += length * times;
    }
    return total;
  };
  const atom = (): number => {
    const char = pattern[at++]!;
    if (char === '^' || char === '$') return 0;
    if (char === '\\') {
      // \uXXXX and \xHH are one character each; so is any other escape.
      const next = pattern[at++];
      if (next === 'u') at += 4;
      else if (next === 'x') at += 2;
      return next === 'b' || next === 'B' ? 0 : 1;
    }
    if (char === '[') {
      while (at < pattern.length && pattern[at] !== ']') at += pattern[at] === '\\' ? 2 : 1;
      at++;
      return 1;
    }
    if (char === '(') {
      // (?:...) groups, (?<name>...) captures; lookarounds (?=, ?!, ?<=, ?<!) match no text.
      const head = /^\?(?::|=|!|<=|<!|<[^>]*>)/.exec(pattern.slice(at))?.[0] ?? '';
      at += head.length;
      const matchesText = !/^\?(=|!|<=|<!)$/.test(head);
      const inner = alternation();
      at++; // ')'
      return matchesText ? inner : 0;
    }
    return 1;
  };
  const quantifier = (): number => {
    let times = 1;
    const char = pattern[at];
    if (char === '?') {
      at++;
    } else if (char === '*' || char === '+') {
      at++;
      times = Infinity;
    } else if (char === '{') {
      const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(pattern.slice(at));
      if (!match) return 1; // a literal brace
      at += match[0].length;
      times = match[2] === undefined ? Number(match[1]) : match[3] ? Number(match[3]) : Infinity;
    } else return 1;
    if (pattern[at] === '?') at++; // lazy: the same bound
    return times;
  };
  const length = sequence();
  return at === pattern.length ? length : Infinity;
}

function stringLength(node: SchemaNode): number {
  const lengths = [
    node.maxLength ?? Infinity,
    node.format !== undefined ? (FORMAT_LENGTH[node.format] ?? Infinity) : Infinity,
    node.pattern !== undefined ? patternLength(node.pattern) : Infinity,
  ];
  return Math.min(...lengths);
}

/** Bounds of one value of a single JSON type under `node`. */
function typeBounds(type: string, node: SchemaNode, walk: Walk): BodyBounds {
  switch (type) {
    case 'null':
    case 'boolean':
      return SCALAR(5);
    case 'integer':
    case 'number':
      return SCALAR(NUMBER_BYTES);
    case 'string':
      return SCALAR(stringBytes(stringLength(node)));
    case 'array':
      return arrayBounds(node, walk);
    case 'object':
      return objectBounds(node, walk);
    default:
      return UNBOUNDED;
  }
}

/** a × b where 0 × Infinity is 0: no items of unbounded size are no bytes. */
const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);

function arrayBounds(node: SchemaNode, walk: Walk): BodyBounds {
  const count = node.maxItems ?? Infinity;
  const tuple = node.prefixItems ?? (Array.isArray(node.items) ? node.items : undefined);
  const rest = node.items !== undefined && !Array.isArray(node.items) ? [node.items] : [];
  const item = largest([...(tuple ?? []), ...rest].map(walk));
  return {
    bytes: 2 + times(count, item.bytes + 1),
    nodes: 1 + times(count, item.nodes),
    keys: times(count, item.keys),
    depth: count === 0 ? 1 : 1 + item.depth,
  };
}

function objectBounds(node: SchemaNode, walk: Walk): BodyBounds {
  let bytes = 2;
  let nodes = 1;
  let keys = 0;
  let depth = 0;
  const add = (keyBytes: number, value: BodyBounds, count = 1) => {
    bytes += times(count, keyBytes + 1 + value.bytes + 1);
    nodes += times(count, value.nodes);
    keys += times(count, 1 + value.keys);
    if (count > 0) depth = Math.max(depth, value.depth);
  };
  for (const [key, value] of Object.entries(node.properties ?? {}))
    add(stringBytes(key.length), walk(value));
  // Members beyond the named ones: as many as maxProperties allows, of the largest kind.
  const open = Object.values(node.patternProperties ?? {});
  const extra = node.additionalProperties;
  if (extra !== false) open.push(typeof extra === 'object' ? extra : {});
  if (open.length > 0) {
    const keyBytes = stringBytes(node.propertyNames ? stringLength(node.propertyNames) : Infinity);
    add(keyBytes, largest(open.map(walk)), node.maxProperties ?? Infinity);
  }
  return { bytes, nodes, keys, depth: depth + 1 };
}

const largest = (all: BodyBounds[]): BodyBounds =>
  all.length === 0
    ? UNBOUNDED
    : {
        bytes: Math.max(...all.map((b) => b.bytes)),
        nodes: Math.max(...all.map((b) => b.nodes)),
        keys: Math.max(...all.map((b) => b.keys)),
        depth: Math.max(...all.map((b) => b.depth)),
      };

type Walk = (node: SchemaNode) => BodyBounds;

/** The bounds of any body `schema` accepts; `$ref`s are read through `resolve`. */
export function bodyBounds(schema: SchemaNode, resolve: Resolve): BodyBounds {
  const resolving = new Set<SchemaNode>();
  const walk: Walk = (node) => {
    if (node.$ref !== undefined) {
      const target = resolve(node.$ref);
      // An unknown or recursive reference bounds nothing.
      if (!target || resolving.has(target)) return UNBOUNDED;
      resolving.add(target);
      const bounds = walk(target);
      resolving.delete(target);
      return bounds;
    }
    if (node.const !== undefined) return literalBounds([node.const]);
    if (node.enum !== undefined) return literalBounds(node.enum);
    // A value must satisfy each of allOf: the smallest bound of them holds for it too,
    // except that objects may combine the properties of each (so add those up).
    if (node.allOf) return node.allOf.length > 0 ? sum(node.allOf.map(walk)) : UNBOUNDED;
    const union = node.anyOf ?? node.oneOf;
    if (union) return largest(union.map(walk));
    if (node.type === undefined) return UNBOUNDED;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    return largest(types.map((type) => typeBounds(type, node, walk)));
  };
  return walk(schema);
}

function literalBounds(values: unknown[]): BodyBounds {
  const bytes = Math.max(
    ...values.map((v) =>
      typeof v === 'string' ? stringBytes(v.length) : JSON.stringify(v).length,
    ),
  );
  return SCALAR(bytes);
}

const sum = (all: BodyBounds[]): BodyBounds => ({
  bytes: all.reduce((n, b) => n + b.bytes, 0),
  nodes: all.reduce((n, b) => n + b.nodes, 0),
  keys: all.reduce((n, b) => n + b.keys, 0),
  depth: Math.max(...all.map((b) => b.depth)),
});
