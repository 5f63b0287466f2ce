/**
 * The key cache's fence (src/modules/users/caller-cache.ts) over a database whose
 * notifications the test delivers by hand, in commit order: a cached key is served only
 * once a barrier sent after the request arrived has come back, so a change committed before
 * that barrier has been heard first, however late notifications arrive.
 */
import { describe, expect, it } from 'vitest';
import type { Database, ListenHandlers } from '../../src/db/database.js';
import type { Caller } from '../../src/domain/caller.js';
import { createCallerCache } from '../../src/modules/users/caller-cache.js';

/** LISTEN whose messages wait in `queue` until `deliver()`; `echo` joins the queue. */
function fakeDatabase(kind: Database['kind']) {
  const queue: string[] = [];
  let handlers: ListenHandlers | undefined;
  const database: Pick<Database, 'listen' | 'kind'> = {
    kind,
    listen: async (_channel, h) => {
      handlers = h;
      h.onConnected();
      return { echo: async (payload) => void queue.push(payload), stop: async () => undefined };
    },
  };
  return {
    database,
    /** A change committed elsewhere: its notification joins the queue. */
    commit: (userId: string) => queue.push(userId),
    deliver: () => {
      for (const payload of queue.splice(0)) handlers!.onMessage(payload);
    },
  };
}

const caller = (id: string): Caller => ({
  id,
  name: id,
  email: `${id}@example.com`,
  roles: [],
  apiVersion: '2026-11-25',
  delegations: new Map(),
});
const digest = Buffer.from('digest of a key').toString('base64');
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the key cache on PostgreSQL', () => {
  it('serves a cached key once its own barrier comes back', async () => {
    const pg = fakeDatabase('postgres');
    const cache = await createCallerCache(pg.database, { staleMs: 60_000 });
    cache.put(digest, caller('u1'), cache.generation());
    let answer: Caller | undefined | 'pending' = 'pending';
    void cache.get(digest).then((c) => (answer = c));
    await settled();
    expect(answer).toBe('pending');
    pg.deliver();
    await settled();
    expect(answer).toMatchObject({ id: 'u1' });
    // Heard up to a moment ago: served at once now.
    expect(await cache.get(digest)).toMatchObject({ id: 'u1' });
  });

  it('never serves a key whose change was committed before the barrier, heard late or not', async () => {
    const pg = fakeDatabase('postgres');
    const cache = await createCallerCache(pg.database, { staleMs: 60_000 });
    cache.put(digest, caller('u2'), cache.generation());
    pg.commit('u2'); // the rotation, committed on another instance; not yet heard here
    const answer = cache.get(digest); // its barrier goes out behind the rotation
    pg.deliver();
    expect(await answer).toBeUndefined();
  });

  it('gives at once (peek) only what get would give without waiting for a barrier', async () => {
    const pg = fakeDatabase('postgres');
    const cache = await createCallerCache(pg.database, { staleMs: 60_000 });
    cache.put(digest, caller('u4'), cache.generation());
    // No barrier heard yet: get would wait, so peek gives nothing (and sends the barrier).
    expect(cache.peek(digest)).toBeUndefined();
    pg.deliver();
    expect(cache.peek(digest)).toMatchObject({ id: 'u4' });
    // A change heard drops the entry: peek and get agree.
    pg.commit('u4');
    pg.deliver();
    expect(cache.peek(digest)).toBeUndefined();
    expect(await cache.get(digest)).toBeUndefined();
  });

  it('waits for nothing on the embedded database (one process hears itself)', async () => {
    const embedded = fakeDatabase('pglite');
    const cache = await createCallerCache(embedded.database, { staleMs: 60_000 });
    cache.put(digest, caller('u3'), cache.generation());
    expect(cache.peek(digest)).toMatchObject({ id: 'u3' });
    expect(await cache.get(digest)).toMatchObject({ id: 'u3' });
    await cache.propagated();
  });
});
