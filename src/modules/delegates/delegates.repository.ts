/** All SQL on delegates. */
import type { Kysely, Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import { listSource } from '../../db/list-source.js';
import type { DB, DelegatesTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';

/** A delegation with its user's name and email (null while no account is linked). */
export type DelegateRow = Selectable<DelegatesTable> & {
  user_name: string | null;
  user_email: string | null;
};

export function delegatesRepository(db: Kysely<DB>) {
  const withUser = () =>
    db
      .selectFrom('delegates as d')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .selectAll('d')
      .select(['u.name as user_name', 'u.email as user_email']);

  /** The roles of an existing delegation, replaced; its id. */
  const replaceRoles = async (
    match: { seller_id: string; user_id?: string; email?: string },
    roles: string[],
    email: string | null,
  ) => {
    let update = db
      .updateTable('delegates')
      .set((eb) => ({
        roles,
        updated_at: new Date(),
        email: email === null ? eb.ref('email') : eb.fn.coalesce('email', eb.val(email)),
      }))
      .where('seller_id', '=', match.seller_id);
    if (match.user_id) update = update.where('user_id', '=', match.user_id);
    if (match.email) update = update.where('email', '=', match.email);
    return (await update.returning('id').executeTakeFirstOrThrow()).id;
  };

  return {
    /**
     * Creates the delegation, or replaces the roles of the seller's existing one for the same
     * user or address; says which. An invitation for the address of an existing delegate
     * updates that delegate.
     */
    async upsert(row: {
      id: string;
      seller_id: string;
      user_id: string | null;
      email: string | null;
      roles: string[];
    }): Promise<{ id: string; created: boolean }> {
      try {
        const inserted = await db
          .insertInto('delegates')
          .values(row)
          .onConflict((oc) =>
            oc
              .constraint(row.email === null ? 'delegates_seller_user' : 'delegates_seller_email')
              .doUpdateSet({ roles: row.roles, updated_at: new Date() }),
          )
          .returning('id')
          .executeTakeFirstOrThrow();
        return { id: inserted.id, created: inserted.id === row.id };
      } catch (error) {
        // The other unique key: the user is a delegate already, under the other name.
        if (isUniqueViolation(error, 'delegates_seller_user') && row.user_id !== null) {
          const id = await replaceRoles(
            { seller_id: row.seller_id, user_id: row.user_id },
            row.roles,
            row.email,
          );
          return { id, created: false };
        }
        if (isUniqueViolation(error, 'delegates_seller_email') && row.email !== null) {
          const id = await replaceRoles(
            { seller_id: row.seller_id, email: row.email },
            row.roles,
            null,
          );
          return { id, created: false };
        }
        throw error;
      }
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

    /** Links the invitations to `email` to the account that now has it (at sign-up). */
    async linkInvitations(userId: string, email: string): Promise<void> {
      await db
        .updateTable('delegates')
        .set({ user_id: userId, updated_at: new Date() })
        .where('user_id', 'is', null)
        .where('email', '=', email.toLowerCase())
        .execute();
    },

    /** The invited user accepts: the seller may see who it is from now on. */
    async accept(sellerId: string, id: string, userId: string): Promise<boolean> {
      const result = await db
        .updateTable('delegates')
        .set((eb) => ({
          accepted_at: eb.fn.coalesce('accepted_at', eb.val(new Date())),
          updated_at: new Date(),
        }))
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A page of delegates with their users' names and emails (the list query adds the rest). */
    listSource(): ListSource<DelegateRow> {
      return listSource(
        () => db.selectFrom('delegates as d').leftJoin('users as u', 'u.id', 'd.user_id'),
        (q) => q.selectAll('d').select(['u.name as user_name', 'u.email as user_email']),
      );
    },

    /** The removed delegation's user (null for an invitation never linked), if it existed. */
    async remove(sellerId: string, id: string): Promise<{ user_id: string | null } | undefined> {
      return db
        .deleteFrom('delegates')
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .returning('user_id')
        .executeTakeFirst();
    },
  };
}
