/**
 * Request validation. Bodies are validated strictly (no type coercion, unknown fields
 * rejected rather than dropped); path, query and header values arrive as strings and are
 * coerced to their declared types. Ajv errors are turned into the `errors` list of a
 * `validation_failed` problem.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { FieldError } from '../domain/errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = {
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  messages: true,
  // Our schemas are code: test/unit/schema-meta.test.ts holds every one of them to JSON
  // Schema's meta-schema. Checking them again at each start compiled the meta-schema's own
  // validator in both instances: 11 % of start-up's instructions (docs/performance.md).
  validateSchema: false,
  // `multipleOf: 0.01` checked as Ajv's default does (33.33 / 0.01 is 3332.9999999999995)
  // refused one two-decimal number in seven; within 1e-9 of a whole multiple is a multiple.
  multipleOfPrecision: 9,
};

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ ...common, coerceTypes });
  addFormats(ajv);
  return ajv;
}

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: called for each
 * encapsulation context with the schemas added by `addSchema` (a plain
 * `setValidatorCompiler` would be reset by a later `addSchema`). One pair of Ajv instances
 * serves every context: building and format-loading Ajv per context was the largest
 * start-up cost. Shared schemas have globally unique `$id`s, so they are added once.
 */
const strictAjv = makeAjv(false);
const coercingAjv = makeAjv('array');
const sharedIds = new Set<string>();
/** Every schema handed to Ajv (shared and per route), for the meta-schema test. */
const handed = new Set<object>();

/** The schemas validation has been given so far in this process. */
export const validatorSchemas = (): readonly object[] => [...handed];

export function buildValidator(
  externalSchemas: Record<string, unknown> = {},
): FastifySchemaCompiler<unknown> {
  for (const schema of Object.values(externalSchemas)) {
    const id = (schema as { $id?: string }).$id;
    // Not `ajv.getSchema(id)`: that compiles the schema, which is what this avoids.
    if (id !== undefined && sharedIds.has(id)) continue;
    if (id !== undefined) sharedIds.add(id);
    handed.add(schema as object);
    for (const ajv of [strictAjv, coercingAjv]) ajv.addSchema(schema as object);
  }
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strictAjv : coercingAjv;
    handed.add(schema as object);
    // Compiled on first use: compiling every route's schemas was a large part of start-up.
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      compiled ??= ajv.compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

/**
 * A body schema checked outside a request (the command line's `users create`): the same Ajv,
 * formats and messages as a route's body, so a rule is written once, in the schema.
 */
export function bodyChecker(schema: object): (data: unknown) => FieldError[] {
  let compiled: ValidateFunction | undefined;
  return (data) => {
    compiled ??= strictAjv.compile(schema);
    return compiled(data) ? [] : toFieldErrors(compiled.errors ?? [], 'body');
  };
}

const LOCATIONS: Record<string, FieldError['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** `/items/0/quantity` -> `items.0.quantity`; the root becomes the whole part's name. */
function pointerToName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

export function toFieldErrors(
  errors: (FastifySchemaValidationError | ErrorObject)[],
  context: string,
): FieldError[] {
  const where = LOCATIONS[context] ?? 'body';
  return errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    const base = pointerToName(error.instancePath);
    switch (error.keyword) {
      case 'required':
        return {
          in: where,
          name: join(base, String(params.missingProperty)),
          detail: 'is required',
        };
      case 'additionalProperties':
        return {
          in: where,
          name: join(base, String(params.additionalProperty)),
          detail: 'is not a known field',
        };
      case 'enum':
        return {
          in: where,
          name: base || where,
          detail: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`,
        };
      default:
        return { in: where, name: base || where, detail: error.message ?? 'is not valid' };
    }
  });
}
