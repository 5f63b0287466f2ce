/**
 * The dispatcher's claim on a large backlog (review-hooks finding 3): 100,000 deliveries of
 * four owners wait, those owners at their caps (left out of the read), 300,000 delivered
 * ones are kept, and another owner has one delivery due, the newest. The claim's read,
 * the repository's own SQL, must find that delivery through indexes: the hooks that have
 * pending deliveries, one probe each (`webhook_deliveries_hook_due`), never a walk of the
 * backlog. In due order it read past all 100,000 (about 110,000 buffers a poll); the bound
 * below is a tenth of that, several times what it takes.
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import {
  claimDue,
  everyHooksDue,
  hooksDue,
} from '../../src/modules/hooks/delivery-claims.repository.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const run = (query: ReturnType<typeof sql>) => query.execute(t.database.db);
  await run(sql`create function hid(p text, n bigint) returns text language sql
    immutable as $$ select p || lpad(to_hex(n), 23, '0') $$`);
  // Sellers 1..4 with the backlog, 5..104 with history, 500 the other owner.
  await run(sql`insert into users (id, name, email, password_hash, api_key_digest,
      api_key_ciphertext, api_version)
    select hid('a', n), 'u' || n, 'u' || n || '@plan.example', 'x',
      decode(lpad(to_hex(n), 64, '0'), 'hex'), '\\x00'::bytea, date '2020-01-01'
    from generate_series(1, 104) n union all
    select hid('a', 500), 'v', 'v@plan.example', 'x', decode(lpad(to_hex(500), 64, '0'),
      'hex'), '\\x00'::bytea, date '2020-01-01'`);
  await run(sql`insert into hooks (id, owner_id, event_name, url, secret_ciphertext,
      api_version, hears_after)
    select hid('b', (o - 1) * 10 + k), hid('a', o), '*',
      'http://stall' || o || '.example:' || (8000 + k % 2) || '/h' || k, '\\x00'::bytea, '2020-01-01', 0
    from generate_series(1, 4) o, generate_series(1, 10) k union all
    select hid('c', o), hid('a', o), 'order.create',
      'https://r' || o || '.example/h', '\\x00'::bytea, '2020-01-01', 0
    from generate_series(5, 104) o union all
    select hid('c', 500), hid('a', 500), 'order.create',
      'https://other.example/h', '\\x00'::bytea, '2020-01-01', 0`);
  await run(sql`insert into domain_events (id, name, seller_id, object, fanned_out)
    select hid('e', n), 'order.create', hid('a', 1 + (n - 1) % 4), '{}'::jsonb, true
    from generate_series(1, 10000) n union all
    select hid('f', n), 'order.create', hid('a', 5 + n % 100), '{}', true
    from generate_series(1, 300000) n union all
    select hid('9', 1), 'order.create', hid('a', 500), '{}', true`);
  await run(sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq,
      next_attempt_at)
    select hid('1', (e - 1) * 10 + k), hid('b', (e - 1) % 4 * 10 + k),
      hid('e', e), 'order.create', e, now() - interval '1 hour' + e * interval '1 ms'
    from generate_series(1, 10000) e, generate_series(1, 10) k`);
  await run(sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq,
      status, delivered_at)
    select hid('2', n), hid('c', 5 + n % 100), hid('f', n),
      'order.create', 100000 + n, 'delivered', now()
    from generate_series(1, 300000) n`);
  await run(sql`insert into webhook_deliveries (id, hook_id, event_id, event_name, event_seq)
    values (hid('5', 1), hid('c', 500), hid('9', 1), 'order.create',
      1000000)`);
  await run(sql`analyze`);
}, 120_000);
afterAll(async () => {
  await t.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

it('finds another owner’s delivery past a backlog of 100,000 through indexes', async () => {
  const owners = [1, 2, 3, 4].map((n) => `a${n.toString(16).padStart(23, '0')}`);
  const plan = {
    busy: { owners, resellers: [], hosts: [] },
    held: Object.fromEntries(owners.map((o) => [`owner ${o}`, 8])),
    perHook: 4,
    choose: (due: unknown[]) => due,
  };
  // The walk, which a claim runs when 1,000 or more deliveries are due (DUE_READ).
  const [read] = await createQueryRecorder().record((db) =>
    everyHooksDue(db, 16, plan as NonNullable<Parameters<typeof claimDue>[3]>),
  );
  const { rows } = await t.database.db.executeQuery<{ id: string }>(
    CompiledQuery.raw(read!.sql, [...read!.parameters]),
  );
  expect(rows.map((r) => r.id)).toEqual([`5${(1).toString(16).padStart(23, '0')}`]);

  const [explained] = (
    await t.database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, buffers, format json) ${read!.sql}`, [
        ...read!.parameters,
      ]),
    )
  ).rows;
  const root = explained!['QUERY PLAN'][0].Plan;
  const scans = nodes(root).filter((n) => n['Relation Name'] === 'webhook_deliveries');
  expect(scans.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  const buffers = (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0);
  expect(buffers, 'shared buffers the read touched').toBeLessThan(11_000);
});

it('finds the hooks with due deliveries through indexes, and reads only those between walks', async () => {
  const owners = [1, 2, 3, 4].map((n) => `a${n.toString(16).padStart(23, '0')}`);
  const plan = {
    busy: { owners, resellers: [], hosts: [] },
    held: Object.fromEntries(owners.map((o) => [`owner ${o}`, 8])),
    perHook: 4,
  };
  // What a dispatcher keeps a poll interval under a backlog (`Walks`): the backlog's 40
  // hooks and the other owner's, whatever their caps (about 340 buffers here).
  const found = await counted((db) => hooksDue(db));
  expect(found.result).toHaveLength(41);
  expect(found.result).toContain(`c${(500).toString(16).padStart(23, '0')}`);
  expect(await buffersOf(found.statements[0]!)).toBeLessThan(4_000);
  // The polls between walks: the walk's turns over those hooks, a probe each (about 10).
  const between = await counted((db) => everyHooksDue(db, 16, plan, found.result));
  expect(between.result.map((d) => d.id)).toEqual([`5${(1).toString(16).padStart(23, '0')}`]);
  expect(await buffersOf(between.statements[0]!)).toBeLessThan(500);
});

/** The statements `db` runs while `work` runs on it, compiled. */
async function counted<T>(work: (db: typeof t.database.db) => Promise<T>) {
  const statements: CompiledQuery[] = [];
  const executor = t.database.db.getExecutor();
  const result = await work(
    t.database.db.withPlugin({
      transformQuery: (args) => {
        statements.push(executor.compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    }),
  );
  return { result, statements };
}

/** The shared buffers a statement touches, run under EXPLAIN ANALYZE. */
async function buffersOf(statement: CompiledQuery): Promise<number> {
  const [explained] = (
    await t.database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, buffers, format json) ${statement.sql}`, [
        ...statement.parameters,
      ]),
    )
  ).rows;
  const root = explained!['QUERY PLAN'][0].Plan;
  return (root['Shared Hit Blocks'] ?? 0) + (root['Shared Read Blocks'] ?? 0);
}

it('claims that backlog’s other delivery, and reads almost nothing when nothing is due', async () => {
  const owners = [1, 2, 3, 4].map((n) => `a${n.toString(16).padStart(23, '0')}`);
  const plan = {
    busy: { owners, resellers: [], hosts: [] },
    held: Object.fromEntries(owners.map((o) => [`owner ${o}`, 8])),
    perHook: 4,
  };
  const claimed = await counted((db) => claimDue(db, 16, 60_000, plan));
  expect(claimed.result.map((d) => d.id)).toEqual([`5${(1).toString(16).padStart(23, '0')}`]);
  // Every delivery waiting on a retry an hour away: one short read of the due index, not a
  // probe of each hook with pending deliveries (paid on every poll: 20,000 such hooks took
  // 166 ms; the 41 here about a hundred buffers).
  await sql`update webhook_deliveries set next_attempt_at = now() + interval '1 hour'
    where status = 'pending'`.execute(t.database.db);
  await sql`vacuum analyze webhook_deliveries`.execute(t.database.db);
  const idle = await counted((db) => claimDue(db, 16, 60_000, plan));
  expect(idle.result).toEqual([]);
  expect(idle.statements).toHaveLength(1);
  expect(await buffersOf(idle.statements[0]!)).toBeLessThan(20);
});
