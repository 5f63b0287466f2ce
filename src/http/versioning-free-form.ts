/**
 * Responses that are a client's free-form JSON (a user's metadata: any keys, any values), by
 * the route's response schema. Older versions' transforms pass them through untouched: a
 * value tagged `{"object":"event"}` in them is the client's data, not an event. Inside API
 * objects the same data is skipped by name (FREE_FORM_KEYS in src/versions/transforms.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeOf } from './route-of.js';

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A schema any JSON value satisfies (`{}` or `true`, as `Type.Unknown()` makes). */
const anyValue = (schema: unknown) =>
  schema === true || (isNode(schema) && Object.keys(schema).length === 0);

/**
 * An object schema of no declared properties whose values may be anything (`$ref`s resolved
 * by `resolve`): what a client put there comes back as it was put.
 */
export function isFreeForm(schema: unknown, resolve: (id: string) => unknown, depth = 0): boolean {
  if (!isNode(schema) || depth > 8) return false;
  if (typeof schema.$ref === 'string') {
    return isFreeForm(resolve(schema.$ref.replace(/#$/, '')), resolve, depth + 1);
  }
  if (schema.type !== 'object' || schema.properties !== undefined) return false;
  const values = [
    ...Object.values(isNode(schema.patternProperties) ? schema.patternProperties : {}),
    ...(schema.additionalProperties === undefined ? [] : [schema.additionalProperties]),
  ];
  return values.some(anyValue);
}

const byRouteSchema = new WeakMap<object, Map<number, boolean>>();

/** Is this reply's body, by its route's schema for the status, the client's free-form JSON? */
export function freeFormResponse(request: FastifyRequest, reply: FastifyReply): boolean {
  const schema = routeOf(request).schema as { response?: Record<string, unknown> } | undefined;
  if (!schema?.response) return false;
  let known = byRouteSchema.get(schema);
  if (!known) byRouteSchema.set(schema, (known = new Map<number, boolean>()));
  const status = reply.statusCode;
  let answer = known.get(status);
  if (answer === undefined) {
    const forStatus = schema.response[status] ?? schema.response[`${String(status).charAt(0)}xx`];
    answer = isFreeForm(forStatus, (id) => request.server.getSchema(id));
    known.set(status, answer);
  }
  return answer;
}
