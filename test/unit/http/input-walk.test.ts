/**
 * The walks over a parsed body are held to the route's schema: the text check of
 * input-text.ts visits no more values than the route's budget, and the lenient reading of
 * older versions' bodies does not descend into an array longer than its schema's maxItems.
 * The work is counted (reads of array elements), not timed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { findInputProblem } from '../../../src/http/input-text.js';
import { relaxBodyForOlderVersions } from '../../../src/http/lenient-bodies.js';

/** An array of `length` ones that counts how many of its elements are read. */
function counted(length: number) {
  const reads = { count: 0 };
  const array = new Proxy(new Array<number>(length).fill(1), {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { array, reads };
}

describe('findInputProblem', () => {
  it('stops when the budget runs out and names the whole body', () => {
    const { array, reads } = counted(1_000_000);
    expect(findInputProblem({ items: array }, 1_000)).toEqual({
      name: '',
      detail: 'has more than 1000 values; no valid request has as many',
    });
    expect(reads.count).toBeLessThanOrEqual(1_000);
  });

  it('walks everything within the budget', () => {
    const { array, reads } = counted(500);
    expect(findInputProblem({ items: array }, 1_000)).toBeUndefined();
    expect(reads.count).toBe(500);
  });

  it('names the field of a bad text, a bad key and too deep a nesting by its path', () => {
    expect(findInputProblem({ items: [{ name: 'ok' }, { name: 'a\u0000' }] })).toEqual({
      name: 'items.1.name',
      detail: 'must not contain the NUL character (\\u0000)',
    });
    expect(findInputProblem({ meta: { 'k\u0000y': 1 } })).toEqual({
      name: 'meta.k?y',
      detail: 'its name must not contain the NUL character (\\u0000)',
    });
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const problem = findInputProblem(deep);
    expect(problem?.detail).toBe('is nested deeper than 32 levels');
    expect(problem?.name).toBe(Array(32).fill('d').join('.'));
  });
});

describe('relaxBodyForOlderVersions', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: {
      items: {
        type: 'array',
        maxItems: 20,
        items: { type: 'object', properties: { quantity: { type: 'integer' } } },
      },
    },
  };
  const run = async (body: unknown) => {
    const request = {
      apiVersion: '2018-01-01',
      routeOptions: { schema: { body: schema } },
      body,
    } as unknown as FastifyRequest;
    const headers: Record<string, string> = {};
    const reply = {
      header: (name: string, value: string) => (headers[name] = value),
    } as unknown as FastifyReply;
    relaxBodyForOlderVersions(request, reply);
    return { body: request.body, headers };
  };

  it('leaves an array longer than maxItems to validation, unread', async () => {
    const { array, reads } = counted(100_000);
    await run({ items: array });
    expect(reads.count).toBe(0);
  });

  it('still reads arrays within maxItems: numeric strings become numbers, unknown fields go', async () => {
    const { body, headers } = await run({ items: [{ quantity: '2' }], colour: 'red' });
    expect(body).toEqual({ items: [{ quantity: 2 }] });
    expect(headers['x-ignored-fields']).toBe('colour');
  });
});
