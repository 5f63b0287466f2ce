import { describe, expect, it } from 'vitest';
import { orderVersionChanges } from '../../../src/modules/orders/orders.versions.js';
import { applyTransforms, type ObjectTransform } from '../../../src/versions/transforms.js';

const event = (id: string, guides: string[]) => ({ object: 'event', id, guides });

/** Guide ids -> "u-" ids, counting calls to show the batching. */
function guidesToUsers(calls: number[]): ObjectTransform<null> {
  return {
    version: '2018-02-26',
    object: 'event',
    down: (objects) => {
      calls.push(objects.length);
      return objects.map((o) => ({ ...o, guides: (o.guides as string[]).map((g) => `u-${g}`) }));
    },
  };
}

describe('applyTransforms', () => {
  it('rewrites a single object, a list page and nested objects, one batch per response', async () => {
    const calls: number[] = [];
    const payload = {
      data: [event('e1', ['g1']), { object: 'order', id: 'o1', event: event('e2', ['g2']) }],
      paging: { next: null },
    };
    const out = (await applyTransforms(payload, [guidesToUsers(calls)], null)) as typeof payload;
    expect(out.data[0]).toEqual(event('e1', ['u-g1']));
    expect((out.data[1] as { event: unknown }).event).toEqual(event('e2', ['u-g2']));
    expect(calls).toEqual([2]);
  });

  it('rewrites the payload itself when it is the object, and objects inside error bodies', async () => {
    expect(await applyTransforms(event('e1', ['g1']), [guidesToUsers([])], null)).toEqual(
      event('e1', ['u-g1']),
    );
    const problem = { status: 409, code: 'guide_conflict', event: event('e9', ['g9']) };
    expect(await applyTransforms(problem, [guidesToUsers([])], null)).toEqual({
      ...problem,
      event: event('e9', ['u-g9']),
    });
  });

  it('treats error bodies as objects of type problem', async () => {
    const problem = { type: 'urn:x', title: 'T', status: 409, code: 'c', detail: 'd', guide: 'g' };
    const translate: ObjectTransform<null> = {
      version: 'v',
      object: 'problem',
      down: (objects) => objects.map((o) => ({ ...o, guide: `u-${String(o.guide)}` })),
    };
    expect(await applyTransforms(problem, [translate], null)).toEqual({ ...problem, guide: 'u-g' });
    expect(await applyTransforms({ code: 'c' }, [translate], null)).toEqual({ code: 'c' });
  });

  it('leaves payloads without the object alone and does not call the transform', async () => {
    const calls: number[] = [];
    const payload = { object: 'user', id: 'u1', nested: [{ a: 1 }] };
    expect(await applyTransforms(payload, [guidesToUsers(calls)], null)).toEqual(payload);
    expect(calls).toEqual([]);
  });

  it('applies transforms in the order given, each seeing the output of the one before', async () => {
    const rename: ObjectTransform<null> = {
      version: '2018-06-26',
      object: 'event',
      down: (objects) => objects.map((o) => ({ ...o, guides: ['renamed'] })),
    };
    expect(await applyTransforms(event('e', ['g']), [rename, guidesToUsers([])], null)).toEqual(
      event('e', ['u-renamed']),
    );
  });

  it('refuses a transform that drops objects', async () => {
    const broken: ObjectTransform<null> = { version: 'v', object: 'event', down: () => [] };
    await expect(applyTransforms(event('e', []), [broken], null)).rejects.toThrow(/count/);
  });
});

describe('the multi-item orders change (before 2017-09-28)', () => {
  const down = orderVersionChanges.objects!.find((t) => t.object === 'order')!;

  it('puts the first item at the top of an order', async () => {
    const order = { object: 'order', id: 'o1', items: [{ arrival: '2030-01-02', quantity: 2 }] };
    expect(await applyTransforms(order, [down], null)).toMatchObject({
      arrival: '2030-01-02',
      quantity: 2,
    });
  });

  it('leaves alone what is shaped like an order without an array of item objects', async () => {
    for (const items of ['abc', 42, ['x'], [null], { 0: { quantity: 1 } }]) {
      const order = { object: 'order', id: 'o1', items };
      expect(await applyTransforms(order, [down], null)).toEqual(order);
    }
  });
});
