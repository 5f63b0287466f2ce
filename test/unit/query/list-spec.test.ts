import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { defineListSpec, fieldTypeOf } from '../../../src/query/list-spec.js';

const Id = Type.String({ pattern: '^[0-9a-f]{24}$' });
const Ref = Type.Object({ id: Id });
const nullable = <T extends object>(schema: T) =>
  Type.Unsafe({ ...schema, type: [(schema as { type: string }).type, 'null'] });

describe('fieldTypeOf', () => {
  it.each([
    [Id, 'id'],
    [Ref, 'id'],
    [nullable(Ref), 'id'],
    [Type.Object({ id: Id, name: Type.String() }), 'id'],
    [Type.String({ format: 'date' }), 'date'],
    [Type.String({ format: 'date-time' }), 'datetime'],
    [Type.String(), 'string'],
    [nullable(Type.String()), 'string'],
    [Type.Integer(), 'integer'],
    [nullable(Type.Integer()), 'integer'],
    [Type.Number(), 'number'],
    [Type.Boolean(), 'boolean'],
    [Type.Array(Id), 'id-array'],
    [Type.Array(Ref), 'id-array'],
    [Type.Enum(['a', 'b']), 'enum'],
    [Type.Union([Type.Literal('a'), Type.Literal('b')]), 'enum'],
  ])('%j is %s', (schema, type) => {
    expect(fieldTypeOf(schema)?.type).toBe(type);
  });

  it('keeps the values of an enum', () => {
    expect(fieldTypeOf(Type.Enum(['confirmed', 'canceled']))?.enumValues).toEqual([
      'confirmed',
      'canceled',
    ]);
  });

  it('has no type for objects that are not references, or for unknown shapes', () => {
    expect(fieldTypeOf(Type.Object({ a: Type.String() }))).toBeUndefined();
    expect(fieldTypeOf(Type.Object({ id: Type.String() }))).toBeUndefined();
    expect(fieldTypeOf(Type.Array(Type.String()))).toBeUndefined();
    expect(fieldTypeOf(Type.Unknown())).toBeUndefined();
  });
});

describe('defineListSpec', () => {
  const Thing = Type.Object({
    id: Id,
    seller: Ref,
    name: Type.String(),
    status: Type.Enum(['on', 'off']),
    items: Type.Array(Type.Object({ arrival: Type.String({ format: 'date' }), event: Ref })),
  });
  const spec = defineListSpec(Thing, {
    resource: 'things',
    table: 'things',
    alias: 't',
    fields: {
      id: { sql: 'id', sortable: true },
      seller: { sql: 'seller_id', itemSql: 'seller_id' },
      name: 'name',
      status: 'status',
      'items.arrival': 'arrival',
      'items.event': 'event_id',
    },
    items: { prefix: 'items', table: 'thing_items', alias: 'i', parentColumn: 'thing_id' },
  });

  it('derives types, columns, sorting and item fields', () => {
    expect(
      spec.fields.map(({ name, type, sql, sortable, item, itemSql, enumValues }) => ({
        name,
        type,
        sql,
        sortable,
        item,
        itemSql,
        enumValues,
      })),
    ).toEqual([
      { name: 'id', type: 'id', sql: 'id', sortable: true },
      { name: 'seller', type: 'id', sql: 'seller_id', itemSql: 'seller_id' },
      { name: 'name', type: 'string', sql: 'name' },
      { name: 'status', type: 'enum', sql: 'status', enumValues: ['on', 'off'] },
      { name: 'items.arrival', type: 'date', sql: 'arrival', item: true },
      { name: 'items.event', type: 'id', sql: 'event_id', item: true },
    ]);
  });

  it('reads values from API objects, references as their id', () => {
    const object = {
      id: 'a'.repeat(24),
      seller: { id: 'b'.repeat(24) },
      name: 'N',
      status: 'on',
      items: [{ arrival: '2030-01-02', event: { id: 'c'.repeat(24) } }],
    };
    const read = Object.fromEntries(
      spec.fields.filter((f) => !f.item).map((f) => [f.name, f.read(object)]),
    );
    expect(read).toEqual({ id: 'a'.repeat(24), seller: 'b'.repeat(24), name: 'N', status: 'on' });
    const item = spec.items!.read(object)[0]!;
    expect(spec.fields.find((f) => f.name === 'items.event')!.read(item)).toBe('c'.repeat(24));
    expect(spec.fields.find((f) => f.name === 'items.arrival')!.read(item)).toBe('2030-01-02');
  });

  it('reads an absent reference as null', () => {
    expect(spec.fields[1]!.read({ seller: null })).toBeNull();
  });

  it('refuses a field the schema does not have, or whose type it cannot tell', () => {
    const define = (fields: Record<string, string>) =>
      defineListSpec(Thing, { resource: 'x', table: 'x', alias: 'x', fields });
    expect(() => define({ nope: 'nope' })).toThrow(/no field nope/);
    expect(() => define({ items: 'items' })).toThrow(/cannot tell the type of items/);
  });

  it('reads an array of objects holding a reference as the list of their ids, when told where', () => {
    const held = defineListSpec(Thing, {
      resource: 'x',
      table: 'x',
      alias: 'x',
      fields: { items: { sql: 'event_ids', element: 'event' } },
    });
    const field = held.fields[0]!;
    expect(field.type).toBe('id-array');
    const ids = ['c'.repeat(24), 'd'.repeat(24)];
    expect(
      field.read({ items: ids.map((id) => ({ arrival: '2030-01-02', event: { id } })) }),
    ).toEqual(ids);
    expect(field.read({})).toEqual([]);
    expect(() =>
      defineListSpec(Thing, {
        resource: 'x',
        table: 'x',
        alias: 'x',
        fields: { items: { sql: 'x', element: 'arrival' } },
      }),
    ).toThrow(/holds no reference at arrival/);
  });
});
