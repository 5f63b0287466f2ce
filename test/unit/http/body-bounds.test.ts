/**
 * The size a body schema allows, as body-limits.ts reads it: the longest text a pattern
 * matches, the bytes, values, keys and depth of the largest valid body, and the limits and
 * budgets a route gets from them.
 */
import { describe, expect, it } from 'vitest';
import { bodyBounds, patternLength, type SchemaNode } from '../../../src/http/body-bounds.js';
import {
  bodyPolicy,
  MAX_JSON_DEPTH,
  MIN_BODY_LIMIT,
  NO_BODY_LIMIT,
} from '../../../src/http/body-limits.js';

const none = () => undefined;

describe('patternLength', () => {
  it.each([
    ['^[0-9a-f]{24}$', 24],
    ['^\\d{4}-\\d{2}-\\d{2}$', 10],
    ['^[A-Z]{3}$', 3],
    ['^a{2,5}$', 5],
    ['^(?:ab|cde)?x$', 4],
    ['^(?=\\d)\\d{2}$', 2],
    ['^\\u0041{3}$', 3],
    // ScheduleBound: a date, or a date-time with up to 9 fraction digits and an offset.
    [
      '^\\d{4}-\\d{2}-\\d{2}(T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?$',
      35,
    ],
  ])('%s matches at most %i characters', (pattern, length) => {
    expect(patternLength(pattern)).toBe(length);
    expect(new RegExp(pattern).test('x'.repeat(length + 1))).toBe(false);
  });

  it.each(['abc', '^abc', 'abc$', '^a+$', '^a*$', '^a{2,}$', '^a|b$', '^abc\\$'])(
    '%s bounds nothing',
    (pattern) => expect(patternLength(pattern)).toBe(Infinity),
  );
});

describe('bodyBounds', () => {
  const Tagged: SchemaNode = {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: { type: 'string', maxLength: 10 },
      tags: { type: 'array', maxItems: 3, items: { type: 'integer' } },
    },
  };

  it('adds up the largest members, each character as a six-byte escape', () => {
    // {"name":<12+60>,"tags":[n,n,n]}: keys 2+4x6, numbers at 24 bytes (the longest text of one)
    expect(bodyBounds(Tagged, none)).toEqual({
      bytes: 2 + (26 + 1 + 62 + 1) + (26 + 1 + (2 + 3 * 25) + 1),
      nodes: 1 + 1 + (1 + 3),
      keys: 2,
      depth: 2,
    });
  });

  it('holds for a real body: its compact JSON and its values fit', () => {
    const bounds = bodyBounds(Tagged, none);
    const body = { name: '\u0001'.repeat(10), tags: [9, 9, 9] };
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(bounds.bytes);
  });

  it('follows references, takes the largest branch of a union, and the largest enum value', () => {
    const schemas: Record<string, SchemaNode> = { Tagged };
    const bounds = bodyBounds(
      {
        type: 'array',
        maxItems: 2,
        items: { anyOf: [{ $ref: 'Tagged#' }, { type: 'string', enum: ['a', 'abcd'] }] },
      },
      (ref) => schemas[ref.replace(/#$/, '')],
    );
    expect(bounds.nodes).toBe(1 + 2 * 6);
    expect(bounds.keys).toBe(4);
    expect(bounds.depth).toBe(3);
  });

  it('is unbounded where the schema is: open objects, unknown values, cycles, lost refs', () => {
    const open: SchemaNode = { type: 'object', properties: {} };
    expect(bodyBounds(open, none).bytes).toBe(Infinity);
    expect(bodyBounds({ type: 'object', additionalProperties: false }, none).bytes).toBe(2);
    expect(bodyBounds({ type: 'array', maxItems: 3 }, none).nodes).toBe(Infinity);
    expect(bodyBounds({ type: 'array', maxItems: 0 }, none)).toMatchObject({ bytes: 2, nodes: 1 });
    expect(bodyBounds({ $ref: 'Missing#' }, none).bytes).toBe(Infinity);
    const Loop: SchemaNode = { type: 'object', additionalProperties: false };
    Loop.properties = { next: { $ref: 'Loop#' } };
    expect(bodyBounds(Loop, () => Loop).depth).toBe(Infinity);
    // Keys and values: a bounded number of members of unbounded size.
    const record: SchemaNode = {
      type: 'object',
      maxProperties: 100,
      propertyNames: { maxLength: 255 },
      additionalProperties: { type: 'string', maxLength: 10 },
    };
    expect(bodyBounds(record, none)).toMatchObject({ nodes: 101, keys: 100, depth: 1 });
  });
});

describe('bodyPolicy', () => {
  const CAP = 1_048_576;
  const bounds = { bytes: 200_000, nodes: 1_000, keys: 300, depth: 4 };

  it('gives a schema route twice its largest body, at least MIN_BODY_LIMIT, at most the cap', () => {
    expect(bodyPolicy(bounds, CAP).bytes).toBe(400_000);
    expect(bodyPolicy({ ...bounds, bytes: 90 }, CAP).bytes).toBe(MIN_BODY_LIMIT);
    expect(bodyPolicy({ ...bounds, bytes: 900_000 }, CAP).bytes).toBe(CAP);
    expect(bodyPolicy({ ...bounds, bytes: Infinity }, CAP).bytes).toBe(CAP);
  });

  it('gives a route without a body schema a small limit, and a route its own when it sets one', () => {
    expect(bodyPolicy(undefined, CAP).bytes).toBe(NO_BODY_LIMIT);
    expect(bodyPolicy(bounds, CAP, 65_536).bytes).toBe(65_536);
    expect(bodyPolicy(bounds, 4_096, 65_536).bytes).toBe(4_096);
  });

  it('budgets twice the values and keys of the largest body, plus a margin', () => {
    expect(bodyPolicy(bounds, CAP).budget).toEqual({
      values: 2 * 1_000 + 1_024,
      keys: 2 * 300 + 256,
      depth: MAX_JSON_DEPTH,
    });
    expect(bodyPolicy(undefined, CAP).budget).toMatchObject({ values: 1_024, keys: 256 });
  });

  it('derives the budget from the byte limit where the schema bounds nothing', () => {
    const open = { bytes: Infinity, nodes: Infinity, keys: Infinity, depth: Infinity };
    expect(bodyPolicy(open, CAP, 65_536, 'object').budget).toEqual({
      values: 8_192,
      keys: 4_096,
      depth: MAX_JSON_DEPTH,
      type: 'object',
    });
  });
});
