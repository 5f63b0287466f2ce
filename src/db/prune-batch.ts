/**
 * One batch of the retention sweep's deletes (src/retention.ts): of the rows `pick` selects
 * (by id), the oldest `limit`, passing over rows another sweep, or the work they belong to,
 * holds locked. Ids start with their creation second, so oldest-first is the primary key's
 * own order.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from './types.js';

export async function deleteOldest(
  db: Kysely<DB>,
  table: 'outbox' | 'webhook_deliveries' | 'domain_events',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any of the tables above
  pick: SelectQueryBuilder<DB, any, { id: string }>,
  limit: number,
): Promise<number> {
  const ids = pick
    .orderBy(sql`id`)
    .limit(limit)
    .forUpdate()
    .skipLocked();
  const result = await sql`delete from ${sql.table(table)} where id in (${ids})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
