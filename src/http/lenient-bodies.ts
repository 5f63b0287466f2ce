/**
 * Lenient request bodies for callers before v2026-11-25 Strict Bodies (src/versions/): the
 * body is read against the route's schema, fields it does not know are dropped and named in
 * `X-Ignored-Fields`, and numeric strings where a number is expected become numbers (Xola's
 * clients send both). Runs before validation, so the strict validator then sees a clean
 * body; callers on the strict version get its 400s unchanged. Bodies were depth-checked and held
 * to their route's budget of values already (input-text.ts), so the walk is bounded, and it
 * does not descend into an array longer than the schema's maxItems. A field an older version's
 * rewrite moved (`quantity` into `items.0` before v2017-09-28) is named as it was sent.
 *
 * A header carries only printable ASCII (Node refuses anything else, when the answer is
 * written: after the handler ran, a committed booking was answered 500), so a name with any
 * other character (a CJK or emoji name, a control character, CR LF) is percent-encoded as
 * UTF-8, `%` included (`備考` is `%E5%82%99%E8%80%83`): every name then decodes back to what
 * was sent. Each name is clipped, and so the whole header is bounded.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STRICT_BODIES } from '../versions/index.js';
import { routeOf } from './route-of.js';
import { nameAsSent } from './versioning.js';

export const IGNORED_FIELDS_HEADER = 'x-ignored-fields';
const MAX_NAMED = 20;
/** Characters of a name in the header (some 2 KB for the whole, at MAX_NAMED names). */
const MAX_NAME = 100;

/** Printable ASCII but `%`: what a name is sent as it is. */
const PLAIN = /^[\x20-\x24\x26-\x7e]*$/;

/** A character (a code point) percent-encoded as UTF-8; a lone surrogate as U+FFFD's. */
function escaped(char: string): string {
  const code = char.charCodeAt(0);
  const lone = char.length === 1 && code >= 0xd800 && code <= 0xdfff;
  return lone ? '%EF%BF%BD' : encodeURIComponent(char);
}

/** A name as the header carries it: as sent when plain, else encoded; clipped either way. */
function headerName(name: string): string {
  if (PLAIN.test(name)) return name.slice(0, MAX_NAME);
  let shown = '';
  // By code point, so that no escape and no character is cut in two.
  for (const char of name) {
    const piece = PLAIN.test(char) ? char : escaped(char);
    if (shown.length + piece.length > MAX_NAME) break;
    shown += piece;
  }
  return shown;
}

interface Node {
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: boolean | Node;
  items?: Node;
  maxItems?: number;
  anyOf?: Node[];
  const?: unknown;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

const typesOf = (node: Node): string[] => (node.type === undefined ? [] : [node.type].flat());
const isNull = (node: Node) => typesOf(node).length === 1 && typesOf(node)[0] === 'null';

/**
 * A number is expected: the node's types (or its union's branches) are numbers, and may
 * allow null besides (`Nullable(Type.Integer())` is `type: ["integer", "null"]`); where a
 * string would do too, a numeric string stays a string.
 */
function isNumeric(node: Node): boolean {
  if (node.anyOf) {
    const values = node.anyOf.filter((n) => !isNull(n));
    return values.length > 0 && values.every((n) => isNumeric(n) || typeof n.const === 'number');
  }
  const types = typesOf(node).filter((t) => t !== 'null');
  return types.length > 0 && types.every((t) => t === 'integer' || t === 'number');
}

/**
 * The branch of a union that fits the value's kind (object, array, other). Among several
 * object branches (`{id}` or `{guide: {id}}`), the only one whose required keys the value
 * has; when none or several have them, nothing is dropped and validation answers.
 */
function branchFor(node: Node, value: unknown): Node | undefined {
  if (!node.anyOf) return node;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : undefined;
  if (kind === undefined) return node;
  const fits = node.anyOf.filter((n) => typesOf(n).includes(kind));
  if (fits.length === 1 || kind !== 'object' || value === null) {
    return fits.length === 1 ? fits[0] : undefined;
  }
  const object = value as object;
  const shaped = fits.filter((n) => (n.required ?? []).every((key) => Object.hasOwn(object, key)));
  return shaped.length === 1 ? shaped[0] : undefined;
}

/** Where the walk is (keys from the top, pushed and popped) and the dropped fields named. */
interface Walk {
  path: (string | number)[];
  ignored: string[];
}

/** Reads `value` against `node` in place; returns the value to keep (a number for "900"). */
function relax(value: unknown, node: Node, walk: Walk): unknown {
  if (typeof value === 'string' && NUMERIC.test(value) && isNumeric(node)) return Number(value);
  const schema = branchFor(node, value);
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    // Longer than the schema allows: validation refuses it as it is, without a walk first.
    if (!schema.items || value.length > (schema.maxItems ?? Infinity)) return value;
    for (let i = 0; i < value.length; i++) value[i] = within(walk, i, value[i], schema.items);
    return value;
  }
  if (!schema.properties) return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    // An own property only: `toString` or `constructor` is a field no schema knows.
    const property = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (property) object[key] = within(walk, key, object[key], property);
    else if (schema.additionalProperties === false) {
      delete object[key];
      // Only the first few are named; the path is joined only for those.
      if (walk.ignored.length < MAX_NAMED) walk.ignored.push([...walk.path, key].join('.'));
    }
  }
  return value;
}

function within(walk: Walk, key: string | number, value: unknown, node: Node): unknown {
  walk.path.push(key);
  const kept = relax(value, node, walk);
  walk.path.pop();
  return kept;
}

export function relaxBodyForOlderVersions(request: FastifyRequest, reply: FastifyReply): void {
  if (request.apiVersion >= STRICT_BODIES) return;
  const schema = routeOf(request).schema?.body as Node | undefined;
  if (!schema || request.body === null || typeof request.body !== 'object') return;
  const walk: Walk = { path: [], ignored: [] };
  request.body = relax(request.body, schema, walk);
  if (walk.ignored.length > 0) {
    // Named as the client sent them, not as an older version's rewrite moved them.
    const named = walk.ignored.map((name) => headerName(nameAsSent(request, 'body', name)));
    void reply.header(IGNORED_FIELDS_HEADER, named.join(', '));
  }
}
