/**
 * The SQL the API runs for a list request, for pgbench: the query string goes through the
 * service's own parse, plan and compile, and the repository builds its list query on a
 * query recorder (src/db/query-recorder.ts), as test/postgres/explain.test.ts does. The caller's scope is the one the API applies.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import type { Db } from '../src/db/database.js';
import { createQueryRecorder } from '../src/db/query-recorder.js';
import type { DB } from '../src/db/types.js';
import { eventVisibility } from '../src/modules/events/event-visibility.js';
import { ordersScope } from '../src/modules/orders/orders.service.js';
import { eventList } from '../src/modules/events/events.list.js';
import { eventsRepository } from '../src/modules/events/events.repository.js';
import { orderList } from '../src/modules/orders/orders.list.js';
import { ordersRepository } from '../src/modules/orders/orders.repository.js';
import type { Caller } from '../src/domain/caller.js';
import { compile } from '../src/query/compile.js';
import { parse } from '../src/query/parse.js';
import { plan } from '../src/query/plan.js';
import type { ListSource } from '../src/query/run.js';
import type { ResourceSpec, Scope } from '../src/query/types.js';

export type ListResource = 'orders' | 'events';

const resources: Record<
  ListResource,
  {
    spec: ResourceSpec;
    source: (db: Kysely<DB>) => ListSource<unknown>;
    scope: (db: Db, caller: Caller) => Promise<Scope>;
  }
> = {
  orders: {
    spec: orderList,
    source: (db) => ordersRepository(db).jsonListSource(),
    scope: (db, caller) => Promise.resolve(ordersScope(caller)),
  },
  events: {
    spec: eventList,
    source: (db) => eventsRepository(db).listSource(),
    scope: (db, caller) => eventVisibility().scope(db, caller),
  },
};

const recorder = createQueryRecorder();

/**
 * The list query (the page of rows, not the items fetched for it) for `query`. One at a
 * time: the recorder is shared.
 */
export async function listSql(
  db: Db,
  resource: ListResource,
  caller: Caller,
  query: Record<string, string>,
): Promise<CompiledQuery> {
  const { spec, source, scope } = resources[resource];
  const compiled = compile(spec, plan(parse(query), spec), await scope(db, caller));
  const recorded = await recorder.record((db) => source(db).rows(compiled));
  if (recorded.length !== 1) throw new Error(`expected one list query, got ${recorded.length}`);
  return recorded[0]!;
}

/** The statements of `GET /api/orders/{id}` (the order with its items, in one query). */
export async function orderSql(id: string): Promise<CompiledQuery[]> {
  return recorder.record((db) => ordersRepository(db).findWithItems(id));
}
