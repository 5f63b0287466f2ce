/**
 * Response serialization. Success bodies go through fast-json-stringify, compiled from the
 * route's response schema (it drops undeclared fields, so nothing internal leaks, and it
 * is faster than JSON.stringify). Error bodies never use a schema: problems are sent with
 * JSON.stringify by `sendProblem`, so their serializers are not built at all.
 *
 * Serializers are compiled on a route's first response, not at start-up: compiling them
 * all was most of the start-up time (about 60 routes times their success codes).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify';

type Serialize = (data: unknown) => string;
type BuildSerializer = (
  externalSchemas?: unknown,
  options?: unknown,
) => FastifySerializerCompiler<unknown>;

const selectSerializer = SerializerSelector() as unknown as BuildSerializer;

/** Fastify's `schemaController.compilersFactory.buildSerializer`. */
export function buildSerializer(
  externalSchemas?: unknown,
  options?: unknown,
): FastifySerializerCompiler<unknown> {
  const compile = selectSerializer(externalSchemas, options);
  return (route) => {
    if (Number(route.httpStatus) >= 400) return JSON.stringify as Serialize;
    let serialize: Serialize | undefined;
    return (data: unknown) => {
      serialize ??= compile(route) as Serialize;
      return serialize(data);
    };
  };
}
