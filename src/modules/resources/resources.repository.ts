/** All SQL on resources themselves (what departures hold of them: resource-seats.repository.ts). */
import type { Kysely } from 'kysely';
import { creationTime, touchedAt } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type { DB } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { ResourceRow } from './resources.schemas.js';

export function resourcesRepository(db: Kysely<DB>) {
  return {
    async insert(row: { id: string; seller_id: string; name: string; capacity: number }) {
      const at = creationTime();
      return db
        .insertInto('resources')
        .values({ ...row, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async findById(id: string): Promise<ResourceRow | undefined> {
      return db.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findMany(ids: readonly string[]): Promise<ResourceRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('resources').selectAll().where('id', 'in', ids).execute();
    },

    /**
     * Locks resources until the transaction ends, in id order (every taker locks them in
     * this order, after its events: no two wait on each other in a cycle).
     */
    async lock(ids: readonly string[]): Promise<ResourceRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('resources')
        .selectAll()
        .where('id', 'in', ids)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    async update(id: string, changes: { name?: string; capacity?: number }): Promise<ResourceRow> {
      return db
        .updateTable('resources')
        .set({ ...changes, updated_at: touchedAt('resources') })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('resources').where('id', '=', id).execute();
    },

    listSource(): ListSource<ResourceRow> {
      return listSource(
        () => db.selectFrom('resources as r'),
        (q) => q.selectAll('r'),
      );
    },
  };
}
