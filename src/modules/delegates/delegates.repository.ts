/** All SQL on delegates. */
import type { Kysely, Selectable } from 'kysely';
import { listSource } from '../../db/list-source.js';
import type { DB, DelegatesTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';

export type DelegateRow = Selectable<DelegatesTable> & { user_name: string; user_email: string };

export function delegatesRepository(db: Kysely<DB>) {
  const withUser = () =>
    db
      .selectFrom('delegates as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .selectAll('d')
      .select(['u.name as user_name', 'u.email as user_email']);

  return {
    /** Creates the delegation, or replaces the roles of an existing one; says which. */
    async upsert(row: {
      id: string;
      seller_id: string;
      user_id: string;
      roles: string[];
    }): Promise<boolean> {
      const result = await db
        .insertInto('delegates')
        .values(row)
        .onConflict((oc) =>
          oc
            .constraint('delegates_seller_user')
            .doUpdateSet({ roles: row.roles, updated_at: new Date() }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return result.id === row.id;
    },

    async find(sellerId: string, id: string): Promise<DelegateRow | undefined> {
      return withUser()
        .where('d.seller_id', '=', sellerId)
        .where('d.id', '=', id)
        .executeTakeFirst();
    },

    async findByUser(sellerId: string, userId: string): Promise<DelegateRow | undefined> {
      return withUser()
        .where('d.seller_id', '=', sellerId)
        .where('d.user_id', '=', userId)
        .executeTakeFirst();
    },

    /** A page of delegates with their users' names and emails (the list query adds the rest). */
    listSource(): ListSource<DelegateRow> {
      return listSource(
        () => db.selectFrom('delegates as d').innerJoin('users as u', 'u.id', 'd.user_id'),
        (q) => q.selectAll('d').select(['u.name as user_name', 'u.email as user_email']),
      );
    },

    async remove(sellerId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('delegates')
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
