/** The reference semantics, on small hand-made objects. */
import { describe, expect, it } from 'vitest';
import { orderList } from '../../../src/modules/orders/orders.list.js';
import { eventList } from '../../../src/modules/events/events.list.js';
import { comparator, evaluate, matches } from '../../../src/query/evaluate.js';
import { parse } from '../../../src/query/parse.js';
import { plan } from '../../../src/query/plan.js';
import type { ResourceSpec } from '../../../src/query/types.js';

const A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const item = (arrival: string, quantity = 1) => ({
  arrival,
  quantity,
  arrivalTime: 900,
  status: 200,
  experience: { id: A },
  event: { id: A },
});
const order = (id: string, fields: Record<string, unknown>) => ({
  id,
  seller: { id: A },
  customer: null,
  customerName: 'Jane Doe',
  customerEmail: 'jane@example.com',
  status: 'confirmed',
  arrival: '2019-11-08',
  amount: 10,
  createdAt: '2019-11-01T10:00:00.000Z',
  updatedAt: '2019-11-01T10:00:00.000Z',
  items: [item('2019-11-08')],
  ...fields,
});

const is = (spec: ResourceSpec, query: Record<string, string>, object: Record<string, unknown>) =>
  matches(spec, plan(parse(query), spec), 'all', object);

describe('evaluate', () => {
  it('treats the three range forms alike, per item', () => {
    const straddling = order('1', { items: [item('2019-11-07'), item('2019-11-11')] });
    const inside = order('2', { items: [item('2019-11-07'), item('2019-11-09')] });
    const forms: Record<string, string>[] = [
      { 'items.arrival[in]': '2019-11-08,2019-11-09,2019-11-10' },
      { 'items.arrival[gte]': '2019-11-08', 'items.arrival[lte]': '2019-11-10' },
      { 'items.arrival[range]': '2019-11-08,2019-11-10' },
    ];
    for (const q of forms) {
      expect(is(orderList, q, straddling)).toBe(false);
      expect(is(orderList, q, inside)).toBe(true);
    }
  });

  it('makes notEqual, nin and doesNotContain match null, and the others not', () => {
    const noEmail = order('1', { customerEmail: null });
    expect(is(orderList, { 'customerEmail[notEqual]': 'x' }, noEmail)).toBe(true);
    expect(is(orderList, { 'customerEmail[nin]': 'x,y' }, noEmail)).toBe(true);
    expect(is(orderList, { 'customerEmail[doesNotContain]': 'x' }, noEmail)).toBe(true);
    expect(is(orderList, { 'customerEmail[contains]': '' }, noEmail)).toBe(false);
    expect(is(orderList, { 'customerEmail[exists]': 'false' }, noEmail)).toBe(true);
  });

  it('ignores case in substring operators and takes % _ \\ literally', () => {
    const o = order('1', { customerName: 'Ann 100%_Off\\Sale' });
    expect(is(orderList, { 'customerName[contains]': '%_off\\' }, o)).toBe(true);
    expect(is(orderList, { 'customerName[startsWith]': 'ANN' }, o)).toBe(true);
    expect(is(orderList, { 'customerName[endsWith]': 'SALE' }, o)).toBe(true);
    expect(is(orderList, { 'customerName[contains]': 'a_n' }, o)).toBe(false);
    expect(is(orderList, { customerName: 'ann 100%_off\\sale' }, o)).toBe(false);
  });

  it('compares datetimes as instants, whatever the offset', () => {
    const o = order('1', {});
    expect(is(orderList, { createdAt: '2019-11-01T11:00:00+01:00' }, o)).toBe(true);
    expect(is(orderList, { 'createdAt[gt]': '2019-11-01' }, o)).toBe(true);
  });

  it('treats an id list as a set', () => {
    const event = {
      id: A,
      guides: [{ status: 'pending', guide: { id: A } }],
      open: null,
      max: null,
    };
    expect(is(eventList, { guides: A }, event)).toBe(true);
    expect(is(eventList, { 'guides[in]': `${B},${A}` }, event)).toBe(true);
    expect(is(eventList, { 'guides[notEqual]': A }, event)).toBe(false);
    expect(is(eventList, { 'guides[nin]': B }, event)).toBe(true);
    expect(is(eventList, { 'guides[exists]': 'false' }, { ...event, guides: [] })).toBe(true);
    expect(is(eventList, { 'open[exists]': 'false' }, event)).toBe(true);
  });

  it('orders like PostgreSQL: nulls last ascending, first descending; ties by id', () => {
    const objects = [
      order('3', { customerEmail: null }),
      order('1', {}),
      order('2', { amount: 5 }),
    ];
    const asc = plan(parse({ sort: 'amount' }), orderList);
    expect([...objects].sort(comparator(asc)).map((o) => o.id)).toEqual(['2', '1', '3']);
    const spec: ResourceSpec = {
      ...orderList,
      fields: orderList.fields.map((f) =>
        f.name === 'customerEmail' ? { ...f, sortable: true } : f,
      ),
    };
    const byEmail = plan(parse({ sort: '-customerEmail' }), spec);
    expect([...objects].sort(comparator(byEmail))[0]!.id).toBe('3');
  });

  it('pages and counts', () => {
    const objects = ['1', '2', '3', '4', '5'].map((id) => order(id, {}));
    const result = evaluate(
      orderList,
      plan(parse({ limit: '2', skip: '2' }), orderList),
      'all',
      objects,
    );
    expect(result.page.map((o) => o.id)).toEqual(['3', '2']);
    expect(result).toMatchObject({ hasMore: true, total: 5 });
    const seller = evaluate(
      orderList,
      plan(parse({}), orderList),
      { anyOf: [{ field: 'seller', in: [B] }] },
      objects,
    );
    expect(seller.total).toBe(0);
  });
});
