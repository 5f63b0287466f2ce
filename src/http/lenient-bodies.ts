/**
 * Lenient request bodies for callers before v2026-11-25 Strict Bodies (src/versions/): the
 * body is read against the route's schema, fields it does not know are dropped and named in
 * `X-Ignored-Fields`, and numeric strings where a number is expected become numbers (Xola's
 * clients send both). Runs before validation, so the strict validator then sees a clean
 * body; callers on the strict version get its 400s unchanged. Bodies were depth-checked
 * already (input-text.ts), so the walk's recursion is bounded.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STRICT_BODIES } from '../versions/index.js';

export const IGNORED_FIELDS_HEADER = 'x-ignored-fields';
const MAX_NAMED = 20;

interface Node {
  type?: string | string[];
  properties?: Record<string, Node>;
  additionalProperties?: boolean | Node;
  items?: Node;
  anyOf?: Node[];
  const?: unknown;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

const isNumeric = (node: Node): boolean =>
  node.type === 'integer' ||
  node.type === 'number' ||
  (node.anyOf !== undefined && node.anyOf.every((n) => typeof n.const === 'number'));

/** The branch of a union that fits the value's kind (object, array, other). */
function branchFor(node: Node, value: unknown): Node | undefined {
  if (!node.anyOf) return node;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : undefined;
  if (kind === undefined) return node;
  const fits = node.anyOf.filter((n) => n.type === kind);
  return fits.length === 1 ? fits[0] : undefined;
}

/** Reads `value` against `node` in place; returns the value to keep (a number for "900"). */
function relax(value: unknown, node: Node, path: string, ignored: string[]): unknown {
  if (typeof value === 'string' && NUMERIC.test(value) && isNumeric(node)) return Number(value);
  const schema = branchFor(node, value);
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (schema.items)
      value.forEach((v, i) => (value[i] = relax(v, schema.items!, `${path}${i}.`, ignored)));
    return value;
  }
  if (!schema.properties) return value;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const property = schema.properties[key];
    if (property) object[key] = relax(object[key], property, `${path}${key}.`, ignored);
    else if (schema.additionalProperties === false) {
      delete object[key];
      ignored.push(`${path}${key}`);
    }
  }
  return value;
}

export async function relaxBodyForOlderVersions(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (request.apiVersion >= STRICT_BODIES) return;
  const schema = request.routeOptions.schema?.body as Node | undefined;
  if (!schema || request.body === null || typeof request.body !== 'object') return;
  const ignored: string[] = [];
  request.body = relax(request.body, schema, '', ignored);
  if (ignored.length > 0) {
    const named = ignored.slice(0, MAX_NAMED).map((name) => name.slice(0, 100));
    void reply.header(IGNORED_FIELDS_HEADER, named.join(', '));
  }
}
