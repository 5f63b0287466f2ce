/**
 * The retention sweep's SQL on webhooks (src/retention.ts): settled deliveries, with their
 * attempts, and the domain events the fan-out is done with and no delivery names.
 */
import { sql, type Kysely } from 'kysely';
import { ago, idsMadeBefore } from '../../db/db-clock.js';
import { deleteOldest } from '../../db/prune-batch.js';
import type { DB } from '../../db/types.js';

export function webhookRetentionRepository(db: Kysely<DB>) {
  return {
    /**
     * Deletes up to `limit` deliveries settled (delivered, failed) more than `ageMs` ago, with
     * their attempts (what receivers answered). Pending ones stay, whatever their age: a
     * disabled hook's resume when it is enabled. Returns how many went.
     */
    async pruneDeliveries(ageMs: number, limit: number): Promise<number> {
      const settled = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', '<', idsMadeBefore(ageMs))
        .where('status', 'in', ['delivered', 'failed'])
        .where('updated_at', '<', ago(ageMs));
      return deleteOldest(db, 'webhook_deliveries', settled, limit);
    },

    /**
     * Deletes up to `limit` domain events older than `ageMs` that the fan-out has taken and
     * no delivery still names (their audits hold what changed, customers' data included).
     * Returns how many went.
     */
    async pruneEvents(ageMs: number, limit: number): Promise<number> {
      const done = db
        .selectFrom('domain_events as e')
        .select('e.id')
        .where('e.id', '<', idsMadeBefore(ageMs))
        .where('e.fanned_out', '=', true)
        .where('e.created_at', '<', ago(ageMs))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries as d')
                .select(sql`1`.as('one'))
                .whereRef('d.event_id', '=', 'e.id'),
            ),
          ),
        );
      return deleteOldest(db, 'domain_events', done, limit);
    },
  };
}
