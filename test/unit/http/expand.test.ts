/**
 * `expand=` as a pure step over a response: each relation resolved once per response with
 * every id of the page, references replaced in place wherever the object type holds them,
 * those the caller may not see left as `{id}`, and bad expansions refused by name.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expandHook, readExpand, type Expanders } from '../../../src/http/expand.js';
import type { Db } from '../../../src/db/database.js';
import type { QueryError } from '../../../src/query/errors.js';

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const C = 'c'.repeat(24);

function request(query: Record<string, unknown>, expands?: string): FastifyRequest {
  return {
    query,
    caller: null,
    routeOptions: { config: expands ? { expands } : {} },
  } as unknown as FastifyRequest;
}

function reply(statusCode = 200) {
  const state = { serializer: undefined as unknown };
  return {
    state,
    reply: {
      statusCode,
      serializer: (s: unknown) => (state.serializer = s),
    } as unknown as FastifyReply,
  };
}

/** Expanders that record their calls and know every id but C. */
function recording() {
  const calls: { relation: string; ids: readonly string[] }[] = [];
  const make = (relation: string) => async (_db: Db, _caller: unknown, ids: readonly string[]) => {
    calls.push({ relation, ids });
    return new Map(
      ids.filter((id) => id !== C).map((id) => [id, { object: relation, id, full: true }]),
    );
  };
  const expanders: Expanders = {
    seller: make('seller'),
    experience: make('experience'),
    event: make('event'),
    guides: make('guide'),
  };
  return { calls, expanders };
}

describe('readExpand', () => {
  it('takes expand out of the query and keeps the names, once each', () => {
    const r = request({ expand: 'seller, experience,seller', limit: '5' }, 'event');
    readExpand(r);
    expect(r.expand).toEqual(['seller', 'experience']);
    expect(r.query).toEqual({ limit: '5' });
  });

  it('refuses a name the route’s objects do not offer, or a route that expands nothing', () => {
    const refused = (query: Record<string, unknown>, expands?: string) => {
      try {
        readExpand(request(query, expands));
      } catch (error) {
        return error as QueryError;
      }
      throw new Error('not refused');
    };
    expect(refused({ expand: 'guides' }, 'experience')).toMatchObject({
      code: 'invalid_parameter',
      parameter: 'expand',
      detail: 'Cannot expand "guides" here; expandable: seller.',
    });
    expect(refused({ expand: 'everything' }, 'order').detail).toContain(
      'experience, event, seller',
    );
    expect(refused({ expand: 'seller' }).detail).toBe('This endpoint expands nothing.');
    expect(refused({ expand: ['seller', 'event'] }, 'order').code).toBe('repeated_parameter');
    expect(refused({ expand: '' }, 'order').code).toBe('invalid_parameter');
  });

  it('does nothing without expand', () => {
    const r = request({ limit: '5' }, 'event');
    readExpand(r);
    expect(r.expand).toBeUndefined();
  });
});

describe('expandHook', () => {
  it('resolves each relation once for a whole page, wherever the references sit', async () => {
    const { calls, expanders } = recording();
    const hook = expandHook({} as Db, expanders);
    const r = request({ expand: 'experience,event,seller' }, 'order');
    readExpand(r);
    const page = {
      data: [
        {
          object: 'order',
          seller: { id: A },
          items: [
            { experience: { id: A }, event: { id: B } },
            { experience: { id: B }, event: { id: C } },
          ],
        },
        {
          object: 'order',
          seller: { id: A },
          items: [{ experience: { id: A }, event: { id: B } }],
        },
      ],
      paging: { next: null },
    };
    const { reply: rep, state } = reply();
    const out = (await hook(r, rep, page)) as typeof page;
    expect(calls).toEqual([
      { relation: 'experience', ids: [A, B] },
      { relation: 'event', ids: [B, C] },
      { relation: 'seller', ids: [A] },
    ]);
    expect(out.data[0]!.items[0]!.experience).toEqual({ object: 'experience', id: A, full: true });
    expect(out.data[0]!.items[1]!.event).toEqual({ id: C }); // not visible: stays a reference
    expect(out.data[1]!.seller).toEqual({ object: 'seller', id: A, full: true });
    expect(page.data[0]!.seller).toEqual({ id: A }); // the handler's object is not changed
    expect(state.serializer).toBe(JSON.stringify);
  });

  it('expands the guides of an event, and leaves errors and unexpanded requests alone', async () => {
    const { calls, expanders } = recording();
    const hook = expandHook({} as Db, expanders);
    const r = request({ expand: 'guides' }, 'event');
    readExpand(r);
    const event = { object: 'event', guides: [{ status: 'pending', guide: { id: A } }] };
    const out = (await hook(r, reply().reply, event)) as typeof event;
    expect(out.guides[0]).toEqual({
      status: 'pending',
      guide: { object: 'guide', id: A, full: true },
    });
    const problem = { code: 'not_found' };
    expect(await hook(r, reply(404).reply, problem)).toBe(problem);
    expect(await hook(request({}, 'event'), reply().reply, event)).toBe(event);
    expect(calls).toHaveLength(1);
  });
});
