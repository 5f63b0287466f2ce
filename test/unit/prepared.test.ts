/**
 * Prepared statements chosen per query (db/prepared.ts): a marked query's SQL goes out as
 * a named statement (one name per text), anything else exactly as it was sent.
 *
 * @isolated The marked queries below must be named: the prepared statements' budget is the
 * process's (db/prepared.ts), and files run earlier in a shared worker may have spent it.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import { COMMITS, PipelinedQuery } from '../../src/db/pipelined-transaction.js';
import { wrapPoolClients } from '../../src/db/pool-clients.js';
import { MAX_PREPARED, prepared } from '../../src/db/prepared.js';

type Callback = (error: Error | null, result?: unknown) => void;

/**
 * A client that answers as node-postgres does: through the callback when given one. A
 * `pg.Query` is recorded as the call that runs the same statement (text and values, or a
 * config with its name), what node-postgres sends for it; one carrying a BEGIN or a COMMIT
 * (db/pipelined-transaction.ts) is recorded between `['begin (carried)']` and
 * `['commit (carried)']`.
 */
class FakeClient {
  sent: unknown[][] = [];
  /** Calls that came with a callback (the form the wrapper uses for plain queries). */
  callbacks = 0;
  failWith: Error | undefined;
  /** The failure is for this many calls, then none (undefined: every call). */
  failures: number | undefined;
  transactionStatus = 'I';
  getTransactionStatus() {
    return this.transactionStatus;
  }
  query(...args: unknown[]): unknown {
    if (args[0] instanceof pg.Query) {
      const pipelined = args[0] instanceof PipelinedQuery ? args[0] : undefined;
      if (pipelined?.begins) this.sent.push(['begin (carried)']);
      const { name, text, values, callback } = args[0] as unknown as pg.QueryConfig & {
        callback: Callback;
      };
      const result = this.query(
        ...(name ? [{ name, text, values }] : values ? [text, values] : [text]),
        callback,
      );
      if (pipelined?.commits) this.sent.push(['commit (carried)']);
      return result;
    }
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as Callback) : undefined;
    while (args.length > 1 && args.at(-1) === undefined) args.pop();
    // As node-postgres's normalizeQueryConfig does: the callback goes into a config object.
    if (callback && typeof args[0] === 'object')
      (args[0] as { callback?: unknown }).callback = callback;
    this.sent.push(args);
    const result = { rows: [] };
    if (this.failures !== undefined && this.failures-- === 0) this.failWith = undefined;
    if (!callback) return this.failWith ? Promise.reject(this.failWith) : Promise.resolve(result);
    this.callbacks++;
    queueMicrotask(() => (this.failWith ? callback(this.failWith) : callback(null, result)));
    return undefined;
  }
}

function connectedClient(): FakeClient {
  const pool = new EventEmitter();
  wrapPoolClients(pool as unknown as pg.Pool);
  const client = new FakeClient();
  pool.emit('connect', client);
  return client;
}

/** The module loaded anew, with a client: the names are process-wide, and later files share this worker. */
async function freshModule() {
  vi.resetModules();
  const fresh = await import('../../src/db/prepared.js');
  const { wrapPoolClients: wrapFresh } = await import('../../src/db/pool-clients.js');
  const pool = new EventEmitter();
  wrapFresh(pool as unknown as pg.Pool);
  const client = new FakeClient();
  pool.emit('connect', client);
  return { fresh, client };
}

describe('prepared statements', () => {
  const { db } = createQueryRecorder();
  const byId = (id: string) => db.selectFrom('orders').selectAll().where('id', '=', id);

  it('sends a marked query by name, the same name for the same text, values bound', async () => {
    const client = connectedClient();
    const marked = prepared(byId('a').compile());
    prepared(byId('b').compile());
    await client.query(marked.sql, ['a']);
    await client.query(marked.sql, ['b']);
    const [first, second] = client.sent.map((args) => args[0] as pg.QueryConfig);
    expect(first).toEqual({
      name: expect.stringMatching(/^booking_\d+$/),
      text: marked.sql,
      values: ['a'],
      callback: expect.any(Function),
    });
    expect(second!.name).toBe(first!.name);
    expect(second!.values).toEqual(['b']);
  });

  it('leaves unmarked queries, and calls of another shape, as they were', async () => {
    const client = connectedClient();
    const unmarked = db.selectFrom('users').selectAll().where('id', '=', 'x').compile();
    await client.query(unmarked.sql, ['x']);
    await client.query('begin');
    const marked = prepared(byId('c').compile());
    const config = { text: marked.sql, values: ['c'] };
    await client.query(config);
    expect(client.sent).toEqual([
      [unmarked.sql, ['x']],
      ['begin'],
      [{ ...config, callback: expect.any(Function) }],
    ]);
    expect(config).toEqual({ text: marked.sql, values: ['c'] });
  });

  it("runs plain queries through node-postgres's callback form, and passes any other call through", async () => {
    const client = connectedClient();
    await expect(client.query('select 1', [])).resolves.toEqual({ rows: [] });
    const config = { text: 'select 2' };
    await expect(client.query(config)).resolves.toEqual({ rows: [] });
    expect(config).toEqual({ text: 'select 2' });
    expect(client.callbacks).toBe(2);
    // A submittable (a cursor) and a call with its own callback are node-postgres's to handle.
    const cursor = { text: 'select 3', submit: () => undefined };
    void client.query(cursor);
    const own = vi.fn();
    void client.query('select 4', [], own);
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.callbacks).toBe(3);
    expect(own).toHaveBeenCalledWith(null, { rows: [] });
    expect(client.sent.slice(2)).toEqual([[cursor], ['select 4', []]]);
    expect(client.sent[1]).toEqual([{ text: 'select 2', callback: expect.any(Function) }]);
    client.failWith = Object.assign(new Error('boom'), { code: '57014' });
    await expect(client.query('select 5', [])).rejects.toMatchObject({ code: '57014' });
  });

  it('stops naming new texts at MAX_PREPARED, and keeps the names it gave', async () => {
    const { fresh, client } = await freshModule();
    const first = fresh.prepared(byId('a').compile());
    for (let i = 0; i < MAX_PREPARED.reads + 5; i++)
      fresh.prepared(
        db
          .selectFrom('orders')
          .select(sql.lit(i).as(`c${i}`))
          .compile(),
      );
    const late = fresh.prepared(
      db.selectFrom('users').selectAll().where('id', '=', 'late').compile(),
    );
    await client.query(first.sql, ['a']);
    await client.query(late.sql, ['late']);
    const [named, unnamed] = client.sent;
    expect((named![0] as pg.QueryConfig).name).toMatch(/^booking_\d+$/);
    expect(unnamed).toEqual([late.sql, ['late']]);
  });

  it('keeps a budget of names for writes apart from the reads', async () => {
    const { fresh, client } = await freshModule();
    const select = (i: number) =>
      db
        .selectFrom('orders')
        .select(sql.lit(i).as(`c${i}`))
        .where('id', '=', 'x')
        .compile();
    for (let i = 0; i < MAX_PREPARED.reads + 1; i++) fresh.prepared(select(i));
    const write = fresh.prepared(
      db
        .insertInto('probes' as never)
        .values({ n: 1 } as never)
        .compile(),
      'writes',
    );
    await client.query(select(MAX_PREPARED.reads).sql, ['x']);
    await client.query(write.sql, [1]);
    expect(client.sent[0]).toEqual([select(MAX_PREPARED.reads).sql, ['x']]);
    expect((client.sent[1]![0] as pg.QueryConfig).name).toMatch(/^booking_\d+$/);
  });

  it('names an outdated statement anew: sent again at once outside a transaction', async () => {
    const client = connectedClient();
    const marked = prepared(byId('outdated-1').compile());
    await client.query(marked.sql, ['a']);
    const first = (client.sent[0]![0] as pg.QueryConfig).name;
    client.failWith = Object.assign(new Error('cached plan must not change result type'), {
      code: '0A000',
    });
    client.failures = 1;
    await expect(client.query(marked.sql, ['b'])).resolves.toEqual({ rows: [] });
    const [, failed, again] = client.sent.map((args) => args[0] as pg.QueryConfig);
    expect(failed!.name).toBe(first);
    expect(again!.name).toMatch(/^booking_\d+$/);
    expect(again!.name).not.toBe(first);
    expect(again!.values).toEqual(['b']);
  });

  it('names an outdated statement anew: refused inside a transaction, for it to be run again', async () => {
    const client = connectedClient();
    const marked = prepared(byId('outdated-2').compile());
    await client.query(marked.sql, ['a']);
    const first = (client.sent[0]![0] as pg.QueryConfig).name;
    const outdated = Object.assign(new Error('cached plan must not change result type'), {
      code: '0A000',
    });
    client.failWith = outdated;
    client.failures = 1;
    client.transactionStatus = 'E';
    await expect(client.query(marked.sql, ['b'])).rejects.toBe(outdated);
    expect(client.sent).toHaveLength(2);
    client.transactionStatus = 'I';
    await client.query(marked.sql, ['c']);
    const last = client.sent[2]![0] as pg.QueryConfig;
    expect(last.name).not.toBe(first);
    expect(last.values).toEqual(['c']);
  });

  it("sends a transaction's begin with a statement that can carry it, apart before one that cannot", async () => {
    const client = connectedClient();
    const marked = prepared(byId('begin-1').compile());
    const unmarked = db.selectFrom('users').selectAll().where('id', '=', 'x').compile();
    // Nothing goes out for a transaction without statements.
    await expect(client.query('begin', [])).resolves.toMatchObject({ command: 'BEGIN' });
    await expect(client.query('rollback', [])).resolves.toMatchObject({ command: 'ROLLBACK' });
    expect(client.sent).toEqual([]);
    // A named statement not parsed on this connection yet: BEGIN apart.
    await client.query('begin', []);
    await client.query(marked.sql, ['a']);
    await client.query('commit', []);
    // Parsed now: it carries the BEGIN; so does an unnamed one with parameters.
    await client.query('begin', []);
    await client.query(marked.sql, ['b']);
    await client.query('commit', []);
    await client.query('begin', []);
    await client.query(unmarked.sql, ['x']);
    await client.query('select 1', []);
    await client.query('commit', []);
    // A statement without parameters (the simple protocol) cannot.
    await client.query('begin', []);
    await client.query('select 2', []);
    await client.query('commit', []);
    const shown = client.sent.map(([first]) =>
      typeof first === 'string' ? first : `named ${(first as pg.QueryConfig).values!.join()}`,
    );
    expect(shown).toEqual([
      'begin',
      'named a',
      'commit',
      'begin (carried)',
      'named b',
      'commit',
      'begin (carried)',
      unmarked.sql,
      'select 1',
      'commit',
      'begin',
      'select 2',
      'commit',
    ]);
  });

  it("sends a last statement with its transaction's commit, and the commit after it nowhere", async () => {
    const client = connectedClient();
    const last = `insert into probes values ($1)${COMMITS}`;
    await client.query('begin', []);
    await client.query(last, [1]);
    await expect(client.query('commit', [])).resolves.toMatchObject({ command: 'COMMIT' });
    // A last statement that fails is not committed: the rollback after it goes out.
    client.failWith = Object.assign(new Error('duplicate key'), { code: '23505' });
    client.failures = 1;
    await client.query('begin', []);
    await expect(client.query(last, [1])).rejects.toMatchObject({ code: '23505' });
    await client.query('rollback', []);
    // The next transaction is a plain one again.
    await client.query('begin', []);
    await client.query('select $1', [2]);
    await client.query('commit', []);
    // Only the query right after a last statement may be its commit: a commit later is sent.
    await client.query('begin', []);
    await client.query(last, [3]);
    await client.query('select $1', [4]);
    await client.query('commit', []);
    expect(client.sent.map(([first]) => first)).toEqual([
      'begin (carried)',
      last,
      'commit (carried)',
      'begin (carried)',
      last,
      'commit (carried)',
      'rollback',
      'begin (carried)',
      'select $1',
      'commit',
      'begin (carried)',
      last,
      'commit (carried)',
      'select $1',
      'commit',
    ]);
  });
});
