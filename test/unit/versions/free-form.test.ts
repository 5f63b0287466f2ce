/**
 * A client's free-form JSON is never searched for API objects: inside objects by name
 * (FREE_FORM_KEYS), and as a whole response by the route's schema (isFreeForm). The names
 * are checked against the app's schemas: a new free-form property must be added to them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFreeForm } from '../../../src/http/versioning-free-form.js';
import {
  applyTransforms,
  FREE_FORM_KEYS,
  type ObjectTransform,
} from '../../../src/versions/transforms.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

const tagAll: ObjectTransform<null> = {
  version: 'v',
  object: 'event',
  down: (objects) => objects.map((o) => ({ ...o, seen: true })),
};

describe('applyTransforms and free-form data', () => {
  it('does not search metadata, wherever it is', async () => {
    const payload = {
      object: 'user',
      metadata: { 'a/b/c': { object: 'event' }, deep: [{ object: 'event' }] },
      nested: { object: 'event' },
    };
    const out = (await applyTransforms(structuredClone(payload), [tagAll], null)) as {
      metadata: unknown;
      nested: unknown;
    };
    expect(out.metadata).toEqual(payload.metadata);
    expect(out.nested).toEqual({ object: 'event', seen: true });
  });
});

describe('isFreeForm', () => {
  const schemas: Record<string, unknown> = {
    Metadata: { type: 'object', patternProperties: { '^.*$': {} } },
    User: { type: 'object', properties: { object: { const: 'user' } } },
  };
  const resolve = (id: string) => schemas[id];

  it('is an object of no declared properties and values of any shape', () => {
    expect(isFreeForm({ $ref: 'Metadata#' }, resolve)).toBe(true);
    expect(isFreeForm({ type: 'object', additionalProperties: true }, resolve)).toBe(true);
    expect(isFreeForm({ $ref: 'User#' }, resolve)).toBe(false);
    expect(
      isFreeForm({ type: 'object', patternProperties: { x: { type: 'number' } } }, resolve),
    ).toBe(false);
    expect(isFreeForm({ $ref: 'Missing#' }, resolve)).toBe(false);
    expect(isFreeForm(undefined, resolve)).toBe(false);
  });
});

describe('the free-form properties of the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('are all named in FREE_FORM_KEYS', () => {
    const all = t.app.getSchemas();
    const resolve = (id: string) => all[id];
    const found = new Set<string>();
    const visit = (node: unknown, depth: number): void => {
      if (typeof node !== 'object' || node === null || depth > 30) return;
      const properties = (node as { properties?: Record<string, unknown> }).properties ?? {};
      for (const [name, schema] of Object.entries(properties)) {
        if (isFreeForm(schema, resolve)) found.add(name);
      }
      for (const child of Object.values(node)) visit(child, depth + 1);
    };
    visit(all, 0);
    expect(found.size).toBeGreaterThan(0);
    expect([...found].filter((name) => !FREE_FORM_KEYS.has(name))).toEqual([]);
  });
});
