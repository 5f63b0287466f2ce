import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QueryError } from '../../../src/query/errors.js';
import { operators, operatorsFor } from '../../../src/query/operators.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import {
  FIELD_TYPES,
  OPERATOR_NAMES,
  type FieldType,
  type ResourceSpec,
} from '../../../src/query/types.js';

// One field of every type, and an item group.
const spec: ResourceSpec = {
  resource: 'things',
  table: 'things',
  alias: 't',
  fields: [
    { name: 'id', type: 'id', sql: 'id', read: (o) => o.id, sortable: true },
    { name: 'owner', type: 'id', sql: 'owner_id', read: (o) => o.owner },
    { name: 'name', type: 'string', sql: 'name', read: (o) => o.name, sortable: true },
    { name: 'day', type: 'date', sql: 'day', read: (o) => o.day },
    { name: 'at', type: 'datetime', sql: 'at', read: (o) => o.at, sortable: true },
    { name: 'amount', type: 'number', sql: 'amount', read: (o) => o.amount },
    { name: 'qty', type: 'integer', sql: 'n', read: (o) => o.qty },
    { name: 'flag', type: 'boolean', sql: 'flag', read: (o) => o.flag },
    { name: 'state', type: 'enum', enumValues: ['on', 'off'], sql: 'state', read: (o) => o.state },
    { name: 'tags', type: 'id-array', sql: 'tags', read: (o) => o.tags },
    { name: 'items.day', type: 'date', sql: 'day', item: true, read: (i) => i.day },
  ],
  items: {
    prefix: 'items',
    table: 'parts',
    alias: 'p',
    parentColumn: 'thing_id',
    read: (o) => o.items as never,
  },
};

const ID = '0123456789abcdef01234567';
const sample: Record<FieldType, [string, unknown]> = {
  id: [ID, ID],
  'id-array': [ID, ID],
  string: ['Smith', 'Smith'],
  date: ['2019-11-08', '2019-11-08'],
  datetime: ['2019-11-08T10:00:00Z', Date.UTC(2019, 10, 8, 10)],
  number: ['12.50', 12.5],
  integer: ['42', 42],
  boolean: ['true', true],
  enum: ['on', 'on'],
};
const fieldOf: Record<FieldType, string> = {
  id: 'owner',
  'id-array': 'tags',
  string: 'name',
  date: 'day',
  datetime: 'at',
  number: 'amount',
  integer: 'qty',
  boolean: 'flag',
  enum: 'state',
};

function planOf(query: Record<string, unknown>) {
  return plan(parse(query), spec);
}
function error(query: Record<string, unknown>): QueryError {
  try {
    planOf(query);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error('expected a QueryError');
}

describe('plan: every operator on every type', () => {
  const cases = FIELD_TYPES.flatMap((type) =>
    OPERATOR_NAMES.map((operator) => [type, operator] as const),
  );
  it.each(cases)('%s with %s', (type, operator) => {
    const field = fieldOf[type];
    const [raw, coerced] = sample[type];
    const arity = operators[operator].arity;
    const text = operator === 'exists' ? 'true' : arity === 'one' ? raw : `${raw},${raw}`;
    const key = `${field}[${operator}]`;
    if (!operatorsFor(type).includes(operator)) {
      const e = error({ [key]: text });
      expect(e.code).toBe('operator_not_allowed');
      expect(e.parameter).toBe(key);
      expect(e.detail).toContain(operatorsFor(type).join(', '));
      return;
    }
    const planned = planOf({ [key]: text });
    const expected =
      operator === 'exists' ? [true] : arity === 'one' ? [coerced] : [coerced, coerced];
    expect(planned.filters).toEqual([
      expect.objectContaining({
        parameter: key,
        operator,
        values: expected,
        field: expect.objectContaining({ name: field }),
      }),
    ]);
  });
});

describe('plan: values', () => {
  const good: [string, string, unknown][] = [
    ['at', '2019-11-08', Date.UTC(2019, 10, 8)],
    ['at', '2019-11-08T10:00:00.123+01:00', Date.UTC(2019, 10, 8, 9, 0, 0, 123)],
    ['at', '2019-11-08T10:00:00 01:00', Date.UTC(2019, 10, 8, 9)],
    ['at', '2019-11-08T10:00-0530', Date.UTC(2019, 10, 8, 15, 30)],
    ['amount', '-3', -3],
    ['amount', '0.05', 0.05],
    ['qty', '-2147483648', -2147483648],
    ['name', '', ''],
    ['name', '100% _real_ \\o/', '100% _real_ \\o/'],
  ];
  it.each(good)('coerces %s=%s', (field, raw, value) => {
    expect(planOf({ [field]: raw }).filters[0]!.values).toEqual([value]);
  });

  const bad: [string, string][] = [
    ['owner', 'ABCDEF0123456789abcdef01'],
    ['owner', '123'],
    ['day', '2019-02-30'],
    ['day', '2019-2-3'],
    ['day', '08/11/2019'],
    ['at', '2019-11-08T10:00:00'],
    ['at', '2019-11-08T25:00:00Z'],
    ['at', '2019-11-08T10:00:00+24:00'],
    ['amount', '1e5'],
    ['amount', 'NaN'],
    ['amount', '12,5'],
    ['qty', '1.5'],
    ['qty', '2147483648'],
    ['qty', '99999999999'],
    ['flag', 'yes'],
    ['flag', 'TRUE'],
    ['state', 'maybe'],
    ['name', 'nul\u0000byte'],
    ['tags', 'not-an-id'],
  ];
  it.each(bad)('refuses %s=%s as invalid_value naming the parameter', (field, raw) => {
    const e = error({ [field]: raw });
    expect(e.code).toBe('invalid_value');
    expect(e.parameter).toBe(field);
  });

  it('says what an enum accepts', () => {
    expect(error({ state: 'x' }).detail).toContain('one of on, off');
  });

  it('splits lists and pairs, and counts them', () => {
    expect(planOf({ 'day[in]': '2019-11-08,2019-11-09' }).filters[0]!.values).toEqual([
      '2019-11-08',
      '2019-11-09',
    ]);
    expect(error({ 'day[range]': '2019-11-08' }).code).toBe('wrong_value_count');
    expect(error({ 'day[range]': '2019-11-08,2019-11-09,2019-11-10' }).code).toBe(
      'wrong_value_count',
    );
    expect(error({ 'day[in]': '2019-11-08,' }).code).toBe('invalid_value');
    const many = Array.from({ length: 101 }, () => '2019-11-08').join(',');
    expect(error({ 'day[in]': many }).code).toBe('wrong_value_count');
  });

  it('takes exists=true|false only', () => {
    expect(planOf({ 'name[exists]': 'false' }).filters[0]!.values).toEqual([false]);
    expect(error({ 'name[exists]': 'yes' }).code).toBe('invalid_value');
  });
});

describe('plan: fields, items, paging and sort', () => {
  it('refuses an unknown field and lists the filterable ones', () => {
    const e = error({ colour: 'red' });
    expect(e.code).toBe('unknown_field');
    expect(e.parameter).toBe('colour');
    expect(e.detail).toContain(
      'id, owner, name, day, at, amount, qty, flag, state, tags, items.day',
    );
  });

  it('puts items.* filters in their own group', () => {
    const planned = planOf({ 'items.day[gte]': '2019-11-08', name: 'x' });
    expect(planned.filters.map((f) => f.field.name)).toEqual(['name']);
    expect(planned.itemFilters.map((f) => f.field.name)).toEqual(['items.day']);
  });

  it('defaults to limit 20, skip 0, newest first by keyset', () => {
    const planned = planOf({});
    expect(planned).toMatchObject({ limit: 20, skip: 0, count: false, keyset: true });
    expect(planned.sort.map((k) => [k.field.name, k.direction])).toEqual([['id', 'desc']]);
  });

  it('sorts by an allowed field with id as the tie-break in the same direction', () => {
    const planned = planOf({ sort: 'name' });
    expect(planned.sort.map((k) => [k.field.name, k.direction])).toEqual([
      ['name', 'asc'],
      ['id', 'asc'],
    ]);
    expect(planned.keyset).toBe(false);
    expect(planOf({ sort: '-at' }).sort.map((k) => k.direction)).toEqual(['desc', 'desc']);
    expect(planOf({ sort: 'id' }).keyset).toBe(false);
  });

  it.each([
    ['limit', '0'],
    ['limit', '101'],
    ['limit', 'ten'],
    ['limit', '-1'],
    ['skip', '-1'],
    ['skip', '1.5'],
    ['skip', '100001'],
    ['offset', '-1'],
    ['offset', 'ten'],
  ])('refuses %s=%s', (name, value) => {
    const e = error({ [name]: value });
    expect(e.code).toBe('invalid_paging');
    expect(e.parameter).toBe(name);
  });

  it('accepts the limits of paging', () => {
    expect(planOf({ limit: '1', skip: '0' })).toMatchObject({ limit: 1, skip: 0 });
    expect(planOf({ limit: '100', skip: '100000' })).toMatchObject({ limit: 100, skip: 100000 });
    expect(planOf({ limit: '20', offset: '40' })).toMatchObject({ limit: 20, skip: 40 });
  });

  it('refuses an unsortable sort, listing the sortable fields', () => {
    for (const sort of ['day', '-tags', 'items.day', 'nope']) {
      const e = error({ sort });
      expect(e.code).toBe('invalid_sort');
      expect(e.parameter).toBe('sort');
      expect(e.detail).toContain('sortable: id, name, at');
    }
  });

  it('takes count=true|false only', () => {
    expect(planOf({ count: 'true' }).count).toBe(true);
    expect(error({ count: '1' }).code).toBe('invalid_parameter');
  });
});

describe('plan: the ends of the calendar', () => {
  it('accepts years 1 to 9999, including 0001-0099, and nothing beyond', () => {
    expect(planOf({ day: '0050-01-01' }).filters[0]!.values).toEqual(['0050-01-01']);
    expect(planOf({ day: '9999-12-31' }).filters[0]!.values).toEqual(['9999-12-31']);
    expect(planOf({ at: '0099-12-31' }).filters[0]!.values).toEqual([
      new Date('0099-12-31T00:00:00Z').getTime(),
    ]);
    expect(error({ day: '0000-01-01' }).code).toBe('invalid_value');
    // 23:00 at -02:00 is 10000-01-01T01:00Z: not writable as ISO 8601 without a sign.
    expect(error({ 'at[lt]': '9999-12-31T23:00:00-02:00' }).code).toBe('invalid_value');
    expect(planOf({ 'at[lt]': '9999-12-31T23:00:00+02:00' }).filters).toHaveLength(1);
  });
});

describe("plan: dates and instants, against JavaScript's own calendar", () => {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  // Days past a month's end included, to be refused as JavaScript's Date would roll them.
  const parts = fc.record({
    y: fc.integer({ min: 1, max: 9999 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 31 }),
    h: fc.integer({ min: 0, max: 23 }),
    mi: fc.integer({ min: 0, max: 59 }),
    s: fc.integer({ min: 0, max: 59 }),
    ms: fc.integer({ min: 0, max: 999 }),
    offset: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
  });
  const realDay = (y: number, m: number, d: number) => {
    const date = new Date(0);
    date.setUTCFullYear(y, m - 1, d);
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  };

  it('knows the leap years of the Gregorian calendar', () => {
    for (const day of ['2000-02-29', '2024-02-29', '1600-02-29', '0004-02-29'])
      expect(planOf({ day }).filters[0]!.values).toEqual([day]);
    for (const day of ['1900-02-29', '2023-02-29', '2100-02-29', '0001-02-29'])
      expect(error({ day }).code).toBe('invalid_value');
    expect(planOf({ at: '2000-02-29T12:00:00Z' }).filters[0]!.values).toEqual([
      Date.UTC(2000, 1, 29, 12),
    ]);
    expect(planOf({ at: '1600-03-01' }).filters[0]!.values).toEqual([
      Date.parse('1600-03-01T00:00:00Z'),
    ]);
  });

  it('takes a date exactly when it is on the calendar', () => {
    fc.assert(
      fc.property(parts, ({ y, m, d }) => {
        const day = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
        const coerced = () => planOf({ day }).filters[0]!.values;
        if (realDay(y, m, d)) expect(coerced()).toEqual([day]);
        else expect(() => coerced()).toThrow(QueryError);
      }),
    );
  });

  it('reads an instant with an offset as the epoch milliseconds Date.parse gives', () => {
    fc.assert(
      fc.property(parts, ({ y, m, d, h, mi, s, ms, offset }) => {
        const zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
        const at = `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(ms, 3)}${zone}`;
        const expected = Date.parse(at);
        const writable =
          expected >= Date.parse('0001-01-01T00:00:00Z') &&
          expected <= Date.parse('9999-12-31T23:59:59.999Z');
        const coerced = () => planOf({ at }).filters[0]!.values;
        if (realDay(y, m, d) && writable) expect(coerced()).toEqual([expected]);
        else expect(() => coerced()).toThrow(QueryError);
      }),
    );
  });
});
