/** All SQL on delegates. */
import { sql, type Kysely, type Selectable } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { fromNow } from '../../db/db-clock.js';
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

  return {
    /**
     * Creates the delegation, or replaces the roles of the seller's existing one for the same
     * user (by id) or address (by email); says which.
     */
    async upsert(row: {
      id: string;
      seller_id: string;
      user_id: string | null;
      email: string | null;
      roles: string[];
    }): Promise<{ id: string; created: boolean }> {
      const inserted = await db
        .insertInto('delegates')
        .values({ ...creationStamps(), ...row })
        .onConflict((oc) =>
          oc
            .constraint(row.email === null ? 'delegates_seller_user' : 'delegates_seller_email')
            .doUpdateSet({ roles: row.roles, updated_at: touchedAt('delegates') }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: inserted.id, created: inserted.id === row.id };
    },

    async find(sellerId: string, id: string): Promise<DelegateRow | undefined> {
      return withUser()
        .where('d.seller_id', '=', sellerId)
        .where('d.id', '=', id)
        .executeTakeFirst();
    },

    /**
     * The roles `userId` holds at `sellerId` as a delegate (an invitation counts once
     * accepted, as when a caller authenticates), its row share-locked until the transaction
     * ends; undefined when it is none.
     */
    async lockedRoles(sellerId: string, userId: string): Promise<string[] | undefined> {
      const row = await db
        .selectFrom('delegates')
        .select('roles')
        .where('seller_id', '=', sellerId)
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('email', 'is', null), eb('accepted_at', 'is not', null)]))
        .forShare()
        .executeTakeFirst();
      return row?.roles;
    },

    async findByUser(sellerId: string, userId: string): Promise<DelegateRow | undefined> {
      return withUser()
        .where('d.seller_id', '=', sellerId)
        .where('d.user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * A new token for an invitation not accepted yet: its digest replaces any earlier one (so
     * that token is void), valid for `lifetimeMs` by the database's clock. False when the
     * invitation is accepted (or gone).
     */
    async issueToken(id: string, digest: Buffer, lifetimeMs: number): Promise<boolean> {
      const result = await db
        .updateTable('delegates')
        .set({
          invitation_digest: digest,
          invitation_expires_at: fromNow(lifetimeMs),
          updated_at: touchedAt('delegates'),
        })
        .where('id', '=', id)
        .where('email', 'is not', null)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * An invitation that a token may still accept, locked until the transaction ends (so two
     * acceptances with one token take turns, and the second finds it accepted); `live` is
     * false once its token has expired.
     */
    async lockPendingInvitation(
      sellerId: string,
      id: string,
    ): Promise<{ digest: Buffer; live: boolean } | undefined> {
      const row = await db
        .selectFrom('delegates')
        .select((eb) => [
          'invitation_digest as digest',
          eb('invitation_expires_at', '>', sql<Date>`now()`).as('live'),
        ])
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .where('invitation_digest', 'is not', null)
        .forUpdate()
        .executeTakeFirst();
      return row && { digest: row.digest!, live: row.live === true };
    },

    /**
     * The invitation is accepted by `userId`: it becomes the delegate, the seller sees who it
     * is from now on, and the token is spent.
     */
    async accept(sellerId: string, id: string, userId: string): Promise<boolean> {
      const result = await db
        .updateTable('delegates')
        .set({
          user_id: userId,
          accepted_at: sql<Date>`now()`,
          invitation_digest: null,
          invitation_expires_at: null,
          updated_at: touchedAt('delegates'),
        })
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .where('accepted_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * What an invitation email shows, read when it is sent, with the digest of the live
     * token; undefined once the invitation is accepted, gone or expired.
     */
    async pendingInvitation(id: string): Promise<
      | {
          seller_id: string;
          seller_name: string;
          email: string;
          roles: string[];
          digest: Buffer;
          expires_at: Date;
        }
      | undefined
    > {
      const row = await db
        .selectFrom('delegates as d')
        .innerJoin('users as s', 's.id', 'd.seller_id')
        .select([
          'd.seller_id',
          's.name as seller_name',
          'd.email',
          'd.roles',
          'd.invitation_digest as digest',
          'd.invitation_expires_at as expires_at',
        ])
        .where('d.id', '=', id)
        .where('d.accepted_at', 'is', null)
        .where('d.invitation_expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row && { ...row, email: row.email!, digest: row.digest!, expires_at: row.expires_at! };
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
