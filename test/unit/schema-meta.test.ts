/**
 * Every schema the real application hands to request validation (the shared ones and each
 * route's params, query, headers and body) is valid JSON Schema and compiles, with its
 * references resolved. The service's Ajv does not check schemas against the meta-schema at
 * start (validateSchema: false, http/validation.ts): this test is where that check lives.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorSchemas } from '../../src/http/validation.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** What is wrong with each schema that is not valid JSON Schema or does not compile. */
function problems(schemas: readonly object[]): string[] {
  const ajv = new Ajv({ strict: false, validateSchema: true });
  addFormats(ajv);
  const found: string[] = [];
  const label = (schema: object) => JSON.stringify(schema).slice(0, 120);
  // Shared schemas first (with their ids), so the routes' references resolve.
  const shared: object[] = schemas.filter((schema) => '$id' in schema);
  for (const schema of shared) {
    if (!ajv.validateSchema(schema)) found.push(`${label(schema)}: ${ajv.errorsText()}`);
    else ajv.addSchema(schema);
  }
  for (const schema of schemas.filter((s) => !shared.includes(s))) {
    try {
      ajv.compile(schema as Record<string, unknown>);
    } catch (error) {
      found.push(`${label(schema)}: ${(error as Error).message}`);
    }
  }
  return found;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('request schemas', () => {
  it('are all valid JSON Schema and compile', () => {
    const schemas = validatorSchemas();
    // The shared ones and every route's (distinct objects: routes share IdParams and the
    // like); a compiler that saw none would pass vacuously. 128 and 68 when written.
    expect(schemas.filter((schema) => '$id' in schema).length).toBeGreaterThan(100);
    expect(schemas.filter((schema) => !('$id' in schema)).length).toBeGreaterThan(50);
    expect(problems(schemas)).toEqual([]);
  });

  it('the check finds a schema that is not valid, and a reference that does not resolve', () => {
    const wrong = { type: 'object', properties: { n: { type: 'integer', minimum: '5' } } };
    const dangling = { type: 'object', properties: { n: { $ref: 'NoSuchSchema#' } } };
    expect(problems([wrong, dangling])).toHaveLength(2);
  });
});
