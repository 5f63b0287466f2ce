/**
 * The JSON view generator's rules (src/db/json-view.ts): every property has its SQL, none
 * is invented, a gap Node fills is a run of consecutive keys, and the two halves around it
 * join into one object whatever side is empty.
 */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { aroundGap, jsonObject, jsonObjectAround } from '../../src/db/json-view.js';

const Thing = Type.Object({
  object: Type.Literal('thing'),
  id: Type.String(),
  start: Type.String(),
  end: Type.String(),
  size: Type.Integer(),
});

describe('jsonObject', () => {
  it("builds the schema's keys in order, literals from the schema", () => {
    expect(jsonObject(Thing, { id: 't.id', start: 's', end: 'e', size: 't.size' })).toBe(
      "json_build_object('object', 'thing'::text, 'id', t.id, 'start', s, 'end', e, 'size', t.size)",
    );
  });

  it('refuses a property without SQL and SQL for no property', () => {
    expect(() => jsonObject(Thing, { id: 't.id', start: 's', end: 'e' } as never)).toThrow(
      /no SQL for property "size"/,
    );
    expect(() =>
      jsonObject(Thing, { id: 'i', start: 's', end: 'e', size: 'n', colour: 'c' } as never),
    ).toThrow(/no property named colour/);
  });
});

describe('jsonObjectAround', () => {
  it('builds the keys before and after the gap', () => {
    expect(jsonObjectAround(Thing, ['start', 'end'], { id: 't.id', size: 't.size' })).toEqual({
      before: "json_build_object('object', 'thing'::text, 'id', t.id)",
      after: "json_build_object('size', t.size)",
    });
  });

  it('refuses a gap of keys that are not consecutive, or not in the schema', () => {
    expect(() => jsonObjectAround(Thing, ['id', 'end'], { start: 's', size: 'n' })).toThrow(
      /not consecutive/,
    );
    expect(() => jsonObjectAround(Thing, ['end', 'start'], { id: 'i', size: 'n' })).toThrow(
      /not consecutive/,
    );
    expect(() => jsonObjectAround(Thing, ['colour' as 'end'], { id: 'i' } as never)).toThrow(
      /not consecutive/,
    );
  });

  it('refuses a missing property and SQL for one inside the gap', () => {
    expect(() => jsonObjectAround(Thing, ['start', 'end'], { id: 'i' } as never)).toThrow(
      /no SQL for property "size"/,
    );
    expect(() =>
      jsonObjectAround(Thing, ['start', 'end'], { id: 'i', size: 'n', start: 's' } as never),
    ).toThrow(/no property named start/);
  });
});

describe('aroundGap', () => {
  it('joins the halves and the gap into one object, however PostgreSQL spaced them', () => {
    const gap = '"start":"a","end":"b"';
    const whole = aroundGap('{"object" : "thing", "id" : "x"}', gap, '{"size" : 3}');
    expect(JSON.parse(whole)).toEqual({ object: 'thing', id: 'x', start: 'a', end: 'b', size: 3 });
    expect(Object.keys(JSON.parse(whole))).toEqual(['object', 'id', 'start', 'end', 'size']);
    expect(JSON.parse(aroundGap('{}', gap, '{ }'))).toEqual({ start: 'a', end: 'b' });
    expect(JSON.parse(aroundGap('{"id" : "x"}', gap, '{}'))).toEqual({
      id: 'x',
      start: 'a',
      end: 'b',
    });
  });
});
