/**
 * Index use at scale (DESIGN.md section 9): on a database seeded with 100,000 orders,
 * every narrowing operator (equals, in, gt/gte/lt/lte/range, startsWith, endsWith,
 * contains) on every filterable field of orders, experiences, events and guest types must
 * compile to SQL that PostgreSQL answers without a sequential scan of the list's tables
 * (orders and order_items; experiences and events; for guest types, which are listed per
 * seller or experience only, experiences), for an admin and for a seller: the seller with
 * most orders, with the scopes list-scopes.ts builds (for orders also the bare "seller"
 * scope, without the caller's own bookings).
 *
 * The SQL is the API's own: the query string goes through parse, plan and compile, and
 * the repository's list query is built by the real repository on a Kysely instance that
 * records queries instead of running them. Filter values come from the seeded rows the
 * caller can see and are selective (the rarest values, the extreme 0.1-0.2%, a narrow
 * window in the middle, fragments of a rare name), since that is where an index matters:
 * for a broad filter the planner rightly walks the primary key backwards, because every
 * list is ORDER BY id DESC LIMIT 21.
 *
 * It also measures the spec's three equivalent item queries with EXPLAIN ANALYZE and
 * prints the timings (numbers for the notes, not assertions). EXPLAIN_PRINT_PLANS=1 prints
 * the scans of every checked plan.
 */
import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createQueryRecorder } from '../../src/db/query-recorder.js';
import type { DB } from '../../src/db/types.js';
import { eventVisibility } from '../../src/modules/events/event-visibility.js';
import { experiencesScope } from '../../src/modules/experiences/experiences.service.js';
import { ordersScope } from '../../src/modules/orders/orders.service.js';
import { eventList } from '../../src/modules/events/events.list.js';
import { eventsRepository } from '../../src/modules/events/events.repository.js';
import { demographicList } from '../../src/modules/experiences/demographics.list.js';
import { demographicsRepository } from '../../src/modules/experiences/demographics.repository.js';
import { experienceList } from '../../src/modules/experiences/experiences.list.js';
import { experiencesRepository } from '../../src/modules/experiences/experiences.repository.js';
import { orderList } from '../../src/modules/orders/orders.list.js';
import { ordersRepository } from '../../src/modules/orders/orders.repository.js';
import type { Caller } from '../../src/domain/caller.js';
import { compile, compileWhere } from '../../src/query/compile.js';
import { fieldOperators } from '../../src/query/operators.js';
import { withoutSearch } from '../../src/modules/orders/order-search.js';
import { parse } from '../../src/query/parse.js';
import { plan } from '../../src/query/plan.js';
import type { ListSource } from '../../src/query/run.js';
import type {
  FieldSpec,
  OperatorName,
  QueryPlan,
  ResourceSpec,
  Scope,
} from '../../src/query/types.js';
import { createTestDatabase, onPostgres } from '../helpers/database.js';
import { seed, type SeedResult } from './seed.js';

const NARROWING: OperatorName[] = [
  'equals',
  'in',
  'gt',
  'gte',
  'lt',
  'lte',
  'range',
  'startsWith',
  'endsWith',
  'contains',
];

type ScopeName = 'admin' | 'seller' | 'seller or customer';

interface Resource {
  spec: ResourceSpec;
  /** Tables that must never be read by a sequential scan in this list's query. */
  guarded: string[];
  source(db: Kysely<DB>): ListSource<unknown>;
  /** The scopes to check, given the seller (the one with most orders) as the caller. */
  scopes: Partial<Record<ScopeName, (caller: Caller) => Scope | Promise<Scope>>>;
  /** The filter the list requires beside every other (ListSpecDefinition.requiresOneOf). */
  narrowing?: (caller: Caller) => Record<string, string>;
}

const sellerOnly = (caller: Caller): Scope => ({
  anyOf: [{ field: 'seller', in: [caller.id] }],
});

const RESOURCES: Resource[] = [
  {
    spec: orderList,
    guarded: ['orders', 'order_items'],
    source: (db) => ordersRepository(db).jsonListSource(),
    scopes: {
      admin: () => 'all',
      seller: sellerOnly,
      // What the API actually applies to a seller's account: its sales or its own bookings.
      'seller or customer': (caller) => ordersScope(caller),
    },
  },
  {
    spec: experienceList,
    guarded: ['experiences', 'events'],
    source: (db) => experiencesRepository(db).listSource(),
    // A seller sees the visible experiences and its own hidden ones.
    scopes: {
      admin: () => 'all',
      seller: (caller) => experiencesScope(caller),
    },
  },
  {
    spec: eventList,
    guarded: ['events', 'experiences'],
    source: (db) => eventsRepository(db).listSource(),
    scopes: {
      admin: () => 'all',
      seller: (caller) => eventVisibility().scope(database.db, caller),
    },
  },
  {
    spec: demographicList,
    guarded: ['experiences'],
    source: (db) => demographicsRepository(db).listSource(),
    scopes: {
      admin: () => 'all',
      seller: (caller) => experiencesScope(caller),
    },
    narrowing: (caller) => ({ seller: caller.id }),
  },
];

// ---- the SQL the API would run ----

const recorder = createQueryRecorder();

/** The list query the repository runs for this query string and scope. */
async function listQuery(
  resource: Resource,
  query: Record<string, string>,
  scope: Scope,
): Promise<CompiledQuery> {
  const compiled = compile(resource.spec, plan(parse(query), resource.spec), scope);
  const recorded = await recorder.record((db) => resource.source(db).rows(compiled));
  expect(recorded).toHaveLength(1);
  return recorded[0]!;
}

/** The count query the repository runs (for the notes: how many orders really match). */
async function countQuery(
  resource: Resource,
  query: Record<string, string>,
  scope: Scope,
): Promise<CompiledQuery> {
  const compiled = compile(resource.spec, plan(parse(query), resource.spec), scope);
  const recorded = await recorder.record((db) => resource.source(db).count(compiled.where));
  return recorded[0]!;
}

// ---- plans ----

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Total Time'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

interface ExplainOutput {
  Plan: PlanNode;
  'Planning Time'?: number;
  'Execution Time'?: number;
}

function* nodes(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodes(child);
}

/** `Seq Scan on x`, `Index Scan Backward using orders_pkey on orders`, ... for one plan. */
function scans(root: PlanNode): string[] {
  return [...nodes(root)]
    .filter((n) => n['Relation Name'] !== undefined || n['Index Name'] !== undefined)
    .map((n) =>
      [
        n['Node Type'],
        n['Index Name'] && `using ${n['Index Name']}`,
        n['Relation Name'] && `on ${n['Relation Name']}`,
      ]
        .filter(Boolean)
        .join(' '),
    );
}

let database: Database;

async function explain(query: CompiledQuery, options = 'format json'): Promise<ExplainOutput> {
  const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': ExplainOutput[] }>(
    CompiledQuery.raw(`explain (${options}) ${query.sql}`, [...query.parameters]),
  );
  return rows[0]!['QUERY PLAN'][0]!;
}

async function textPlan(query: CompiledQuery): Promise<string> {
  const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>(
    CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
  );
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

// ---- filter values from the seeded rows a caller can see ----

const EMPTY_PLAN: QueryPlan = {
  filters: [],
  itemFilters: [],
  sort: [],
  limit: 20,
  skip: 0,
  count: false,
  keyset: true,
};

const fieldNamed = (spec: ResourceSpec, name: string): FieldSpec =>
  spec.fields.find((f) => f.name === name)!;

const columnOf = (field: FieldSpec, alias: string): RawBuilder<unknown> =>
  typeof field.sql === 'string' ? sql.ref(`${alias}.${field.sql}`) : field.sql(alias);

/** Values of a field, as the API would write them in a query string. */
interface Sample {
  /** The rarest non-empty values, rarest first (up to four). */
  rare: string[];
  /** Quantiles 0.1%, 0.2%, 50%, 50.1%, 99.8%, 99.9% (ordered types only). */
  quantiles?: Record<'q001' | 'q002' | 'q500' | 'q501' | 'q998' | 'q999', string>;
}

function asQueryValue(value: unknown, field: FieldSpec): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`${field.name}: unexpected sample value ${JSON.stringify(value)}`);
}

const ORDERED = ['id', 'date', 'datetime', 'number', 'integer'];

const samples = new Map<string, Promise<Sample>>();

/** Sample values of a field among the rows `scope` sees (computed once per field and scope). */
function sample(spec: ResourceSpec, field: FieldSpec, scope: Scope): Promise<Sample> {
  const key = JSON.stringify([spec.resource, field.name, scope]);
  if (!samples.has(key)) samples.set(key, computeSample(spec, field, scope));
  return samples.get(key)!;
}

async function computeSample(spec: ResourceSpec, field: FieldSpec, scope: Scope): Promise<Sample> {
  const items = spec.items;
  const from =
    field.item && items
      ? sql`${sql.table(items.table)} as ${sql.id(items.alias)} join ${sql.table(spec.table)} as ${sql.id(spec.alias)} on ${sql.ref(`${spec.alias}.id`)} = ${sql.ref(`${items.alias}.${items.parentColumn}`)}`
      : sql`${sql.table(spec.table)} as ${sql.id(spec.alias)}`;
  const column = columnOf(field, field.item && items ? items.alias : spec.alias);
  const value = field.type === 'id-array' ? sql`unnest(${column})` : column;
  const rows = sql`select ${value} as v from ${from} where ${compileWhere(spec, EMPTY_PLAN, scope)}`;
  const rare = await sql<{ v: unknown }>`
    with s as (${rows}) select v from s where v is not null
    group by v order by count(*), v limit 4`.execute(database.db);
  const result: Sample = { rare: rare.rows.map((r) => asQueryValue(r.v, field)) };
  if (ORDERED.includes(field.type)) {
    const q = (p: number) => sql`percentile_disc(${sql.lit(p)}) within group (order by v)`;
    const { rows: quantiles } = await sql<Record<string, unknown>>`
      with s as (${rows})
      select ${q(0.001)} as q001, ${q(0.002)} as q002, ${q(0.5)} as q500, ${q(0.501)} as q501,
             ${q(0.998)} as q998, ${q(0.999)} as q999
      from s`.execute(database.db);
    result.quantiles = Object.fromEntries(
      Object.entries(quantiles[0]!).map(([k, v]) => [k, asQueryValue(v, field)]),
    ) as Sample['quantiles'];
  }
  return result;
}

/** A fragment of `text` of at least 3 characters (the shortest a trigram index can use). */
function fragment(text: string, where: 'start' | 'end' | 'middle'): string {
  const length = Math.min(text.length, Math.max(3, Math.ceil(text.length * 0.6)));
  if (where === 'start') return text.slice(0, length);
  if (where === 'end') return text.slice(text.length - length);
  const from = Math.floor((text.length - Math.max(3, Math.ceil(text.length / 2))) / 2);
  return text.slice(from, from + Math.max(3, Math.ceil(text.length / 2)));
}

/** The query string for one operator on one field, with selective values. */
function queryFor(field: FieldSpec, operator: OperatorName, s: Sample): Record<string, string> {
  const key = operator === 'equals' ? field.name : `${field.name}[${operator}]`;
  const q = s.quantiles;
  const rare = s.rare[0]!;
  const value = (): string => {
    switch (operator) {
      case 'equals':
        return rare;
      case 'in':
        // Three rare values; on a field with at most three values, all but the commonest.
        return (
          s.rare.length > 3 ? s.rare.slice(0, 3) : s.rare.slice(0, Math.max(1, s.rare.length - 1))
        ).join(',');
      case 'gt':
        return q!.q998;
      case 'gte':
        return q!.q999;
      case 'lt':
        return q!.q002;
      case 'lte':
        return q!.q001;
      case 'range':
        return `${q!.q500},${q!.q501}`;
      case 'startsWith':
        return fragment(rare, 'start');
      case 'endsWith':
        return fragment(rare, 'end');
      case 'contains':
        return fragment(rare, 'middle');
      default:
        throw new Error(`not a narrowing operator: ${operator}`);
    }
  };
  return { [key]: value() };
}

// ---- the tests ----

let seeded: SeedResult;
let caller: Caller;
const summary: string[] = [];

describe.runIf(onPostgres)('EXPLAIN of list queries at 100,000 orders', () => {
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 2 });
    seeded = await seed(database.db);
    // Guest types for every experience (the seeder writes none), as the API stores them.
    await sql`
      update experiences set demographics = jsonb_build_array(
        jsonb_build_object('id', substr(md5(id || 'a'), 1, 24), 'label', 'Adult ' || name,
                           'code', 'adult'),
        jsonb_build_object('id', substr(md5(id || 'c'), 1, 24), 'label', 'Child ' || name,
                           'code', 'child-' || substr(id, 19), 'price', 10))`.execute(database.db);
    await sql`analyze experiences`.execute(database.db);
    caller = {
      id: seeded.biggestSeller,
      name: 'Seller',
      email: 'seller@seed.example.com',
      roles: ['ROLE_SELLER'],
      apiVersion: '2017-01-01',
      delegations: new Map(),
    };
    // eslint-disable-next-line no-console
    console.log(
      `seeded ${JSON.stringify(seeded.counts)} in ${(seeded.milliseconds / 1000).toFixed(1)} s; ` +
        `seller scope: ${seeded.biggestSeller} (the seller with most orders)`,
    );
  }, 180_000);

  afterAll(async () => {
    if (process.env.EXPLAIN_PRINT_PLANS) {
      // eslint-disable-next-line no-console
      console.log(summary.sort().join('\n'));
    }
    await database?.close();
  });

  for (const resource of RESOURCES) {
    const { spec } = resource;
    for (const [scopeName, scopeOf] of Object.entries(resource.scopes)) {
      describe(`${spec.resource} as ${scopeName}`, () => {
        for (const field of spec.fields) {
          const operators = fieldOperators(field).filter((o) => NARROWING.includes(o));
          it.each(operators)(`${field.name}[%s] uses an index`, async (operator) => {
            const scope = await scopeOf(caller);
            const values = await sample(spec, field, scope);
            const query = {
              ...resource.narrowing?.(caller),
              ...queryFor(field, operator, values),
            };
            const compiled = await listQuery(resource, query, scope);
            const { Plan } = await explain(compiled);
            const used = scans(Plan);
            summary.push(
              `${spec.resource} ${scopeName} ${JSON.stringify(query)}: ${used.join(', ')}`,
            );
            const seqScans = [...nodes(Plan)].filter(
              (n) =>
                n['Node Type'] === 'Seq Scan' && resource.guarded.includes(n['Relation Name']!),
            );
            if (seqScans.length > 0) {
              const tables = seqScans.map((n) => n['Relation Name']).join(', ');
              expect.fail(
                [
                  `${spec.resource}: field ${field.name}, operator ${operator}, scope ${scopeName}: sequential scan of ${tables}`,
                  `query: ${new URLSearchParams(query).toString()}`,
                  `sql: ${compiled.sql}`,
                  `parameters: ${JSON.stringify(compiled.parameters)}`,
                  await textPlan(compiled),
                ].join('\n'),
              );
            }
          });
        }
      });
    }
  }

  // `search=` on orders (modules/orders/order-search.ts): a code, a name or an email, found
  // through indexes (the codes' btrees, the trigram indexes) for every scope.
  describe('orders search=', () => {
    const terms = async () => {
      const { rows } = await sql<{
        short_code: string;
        ticket_code: string;
        customer_name: string;
      }>`
        select o.short_code, i.ticket_code, o.customer_name
          from orders o join order_items i on i.order_id = o.id
         where o.seller_id = ${seeded.biggestSeller} order by o.id limit 1`.execute(database.db);
      const row = rows[0]!;
      return {
        'short code': row.short_code.toLowerCase(),
        'ticket code': row.ticket_code,
        'name fragment': row.customer_name.slice(1, 7),
      };
    };
    for (const [scopeName, scopeOf] of Object.entries(RESOURCES[0]!.scopes)) {
      it(`finds by code or name through indexes, as ${scopeName}`, async () => {
        const scope = await scopeOf(caller);
        for (const [kind, term] of Object.entries(await terms())) {
          const query = withoutSearch({ search: term });
          const compiled = compile(orderList, plan(parse(query), orderList), scope);
          const [recorded] = await recorder.record((db) =>
            ordersRepository(db).jsonListSource(term).rows(compiled),
          );
          const { Plan } = await explain(recorded!);
          const seqScans = [...nodes(Plan)].filter(
            (n) =>
              n['Node Type'] === 'Seq Scan' &&
              ['orders', 'order_items'].includes(n['Relation Name']!),
          );
          summary.push(`orders ${scopeName} search ${kind}: ${scans(Plan).join(', ')}`);
          if (seqScans.length > 0)
            expect.fail(`search by ${kind} as ${scopeName}:\n${await textPlan(recorded!)}`);
        }
      });
    }
  });

  // customerName[contains] beside a seller filter walks that seller's orders newest first
  // and stops after a page (docs/performance.md); without one, the trigram index serves it.
  it('builds each order’s view once per page row, under the page’s byte budget', async () => {
    // Read twice after the view's query (its length for the budget, then itself), the view
    // was built twice when PostgreSQL pulled that query up into the next: half again of a
    // page's database time (db/list-source.ts, viewedPage's fence).
    for (const limit of ['20', '100']) {
      const page = await listQuery(RESOURCES[0]!, { limit }, sellerOnly(caller));
      const verbose = JSON.stringify(await explain(page, 'verbose, format json'));
      expect(verbose.match(/'object', 'order'/g), `limit ${limit}`).toHaveLength(1);
    }
  });

  it('walks a seller’s orders newest first for contains, for the largest and a small seller', async () => {
    const orders = RESOURCES[0]!;
    const { rows } = await sql<{ seller_id: string; name: string; n: number }>`
      (select seller_id, min(customer_name) as name, count(*)::int as n from orders
        group by seller_id order by count(*) desc limit 1)
      union all
      (select seller_id, min(customer_name) as name, count(*)::int as n from orders
        group by seller_id having count(*) >= 20 order by count(*) limit 1)`.execute(database.db);
    expect(rows[0]!.n).toBeGreaterThan(rows[1]!.n * 10);
    for (const { seller_id: seller, name } of rows) {
      const seller_ = { ...caller, id: seller };
      for (const scope of [sellerOnly(seller_), ordersScope(seller_)]) {
        const term = name.slice(1, 5);
        const compiled = await listQuery(orders, { seller, 'customerName[contains]': term }, scope);
        const { Plan } = await explain(compiled, 'analyze, format json');
        const used = scans(Plan);
        summary.push(`orders contains ${term} of seller ${seller}: ${used.join(', ')}`);
        expect(used.join(', ')).toContain('Index Scan using orders_seller_created on orders');
        expect(used.join(', ')).not.toContain('_trgm');
        // A default page comes as one row: its views' texts joined (db/list-source.ts).
        const page = await database.db.executeQuery<{ texts: string | null }>(compiled);
        const names = (page.rows[0]?.texts ?? '')
          .split('\u0001')
          .filter((text) => text !== '')
          .map((text) => (JSON.parse(text) as { customerName: string }).customerName);
        expect(names.length).toBeGreaterThan(0);
        for (const name of names) expect(name.toLowerCase()).toContain(term.toLowerCase());
      }
    }
    // Across sellers the pattern stays one the trigram index can serve (the planner picks).
    const everywhere = await listQuery(orders, { 'customerName[contains]': 'zq' }, 'all');
    expect(everywhere.sql).toContain('like');
  });

  it('times the three equivalent item queries (EXPLAIN ANALYZE)', async () => {
    const orders = RESOURCES[0]!;
    // Three consecutive days around the middle of the seller's own arrivals.
    const { q500 } = (
      await sample(orderList, fieldNamed(orderList, 'items.arrival'), sellerOnly(caller))
    ).quantiles!;
    const day = (offset: number) =>
      new Date(Date.parse(`${q500}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const [d1, d2, d3] = [day(0), day(1), day(2)];
    const queries: Record<string, Record<string, string>> = {
      [`items.arrival[in]=${d1},${d2},${d3}`]: { 'items.arrival[in]': `${d1},${d2},${d3}` },
      [`items.arrival[gte]=${d1}&items.arrival[lte]=${d3}`]: {
        'items.arrival[gte]': d1,
        'items.arrival[lte]': d3,
      },
      [`items.arrival[range]=${d1},${d3}`]: { 'items.arrival[range]': `${d1},${d3}` },
    };
    const lines: string[] = [];
    for (const [scopeName, scopeOf] of Object.entries(orders.scopes)) {
      const scope = await scopeOf(caller);
      const pages: string[][] = [];
      for (const [label, query] of Object.entries(queries)) {
        const compiled = await listQuery(orders, query, scope);
        const runs: ExplainOutput[] = [];
        for (let i = 0; i < 7; i++) {
          runs.push(await explain(compiled, 'analyze, buffers, format json'));
        }
        const warm = runs.slice(2);
        const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        const execution = median(warm.map((r) => r['Execution Time']!));
        const planning = median(warm.map((r) => r['Planning Time']!));
        const last = warm.at(-1)!.Plan;
        const hits = (last['Shared Hit Blocks'] ?? 0) + (last['Shared Read Blocks'] ?? 0);
        const counted = await database.db.executeQuery<{ n: number }>(
          await countQuery(orders, query, scope),
        );
        const page = await database.db.executeQuery<{ id: string }>(compiled);
        pages.push(page.rows.map((r) => r.id));
        lines.push(
          `${scopeName.padEnd(18)} ${label.padEnd(60)} execution ${execution.toFixed(3).padStart(7)} ms` +
            `  planning ${planning.toFixed(3).padStart(6)} ms  buffers ${String(hits).padStart(5)}` +
            `  matching orders ${String(counted.rows[0]!.n).padStart(4)}  ${scans(last).join(', ')}`,
        );
      }
      // The same query three ways: the same page.
      expect(pages[1]).toEqual(pages[0]);
      expect(pages[2]).toEqual(pages[0]);
    }
    // eslint-disable-next-line no-console
    console.log(
      `EXPLAIN (ANALYZE, BUFFERS), median of 5 warm runs, 100,000 orders:\n${lines.join('\n')}`,
    );
  }, 120_000);
});
