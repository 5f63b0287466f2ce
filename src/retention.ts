/**
 * Retention: what the service keeps only for its own work is deleted once that work is done
 * and `RETENTION_DAYS` have passed (docs/operations.md, "Retention"). Idempotency keys go
 * after their 24 h; settled emails, settled webhook deliveries with their attempts, and the
 * domain events nothing waits for any more, after the retention. Each holds customers' data
 * (addresses, stored answers, the audits of changes, what receivers answered), and none was
 * ever deleted: the tables grew with every booking, forever.
 *
 * Orders, guests, check-ins and everything else the API serves are the operator's records,
 * never deleted here. Any number of instances may sweep: each batch takes its rows `FOR
 * UPDATE SKIP LOCKED`, so two sweeps share the work rather than wait for each other.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/database.js';
import type { ResourceModule } from './http/module.js';
import { outboxRepository } from './mail/index.js';
import { retentionPruned } from './metrics/index.js';
import { hooksFacade } from './modules/hooks/index.js';
import type { IdempotencyService } from './modules/idempotency/index.js';
import { pollLoop, type PollLoop } from './outbox/index.js';

/** Rows deleted per statement: short locks, short statements, on either database. */
export const PRUNE_BATCH = 1000;

/** One table's pruning: deletes up to `limit` rows past their time, returns how many. */
export interface Pruner {
  readonly table: string;
  prune(limit: number): Promise<number>;
}

/** Every pruner, in the order that frees rows for the next (deliveries hold their events). */
export function retentionPruners(
  db: Db,
  idempotency: Pick<IdempotencyService, 'prune'>,
  retentionMs: number,
): Pruner[] {
  return [
    { table: 'idempotency_keys', prune: (limit) => idempotency.prune(limit) },
    { table: 'outbox', prune: (limit) => outboxRepository(db).prune(retentionMs, limit) },
    {
      table: 'webhook_deliveries',
      prune: (limit) => hooksFacade.pruneDeliveries(db, retentionMs, limit),
    },
    { table: 'domain_events', prune: (limit) => hooksFacade.pruneEvents(db, retentionMs, limit) },
  ];
}

/**
 * The server's sweep rests this long after each full batch: the first sweep of a database
 * never swept deletes its whole backlog, on every instance at once, beside live bookings
 * (on the embedded database, one connection that every request waits for). `cli prune`
 * does not rest.
 */
export const SWEEP_REST_MS = 50;

/**
 * Runs each pruner until it finds less than a batch, or `stopped()` says to stop (between
 * batches: a shutdown waits for one statement, not a backlog), resting `restMs` after each
 * full batch. Returns the rows deleted, by table.
 */
export async function pruneAll(
  pruners: readonly Pruner[],
  { stopped = () => false, restMs = 0 }: { stopped?: () => boolean; restMs?: number } = {},
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const pruner of pruners) {
    let total = 0;
    for (let n = PRUNE_BATCH; n === PRUNE_BATCH && !stopped();) {
      n = await pruner.prune(PRUNE_BATCH);
      total += n;
      retentionPruned.inc({ table: pruner.table }, n);
      if (n === PRUNE_BATCH && restMs > 0) await new Promise((r) => setTimeout(r, restMs));
    }
    deleted[pruner.table] = total;
  }
  return deleted;
}

/** The sweep of this instance: every `everyMs`, and at start. */
export function retentionModule(
  pruners: readonly Pruner[],
  options: { everyMs: number; logger: FastifyBaseLogger } | undefined,
): ResourceModule {
  return {
    name: 'retention',
    schemas: [],
    workers: options ? [retentionSweeper(pruners, options)] : [],
  };
}

function retentionSweeper(
  pruners: readonly Pruner[],
  { everyMs, logger }: { everyMs: number; logger: FastifyBaseLogger },
): PollLoop {
  const loop: PollLoop = pollLoop(
    'retention sweep',
    async () => {
      const deleted = await pruneAll(pruners, {
        stopped: () => loop.stopped,
        restMs: SWEEP_REST_MS,
      });
      if (Object.values(deleted).some((n) => n > 0)) logger.info({ deleted }, 'retention sweep');
      return everyMs;
    },
    (error) => {
      logger.error({ err: error }, 'retention sweep failed');
      return everyMs;
    },
  );
  return loop;
}
