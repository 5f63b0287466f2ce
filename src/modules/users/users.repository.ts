/** All SQL on the `users` table. */
import { sql, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type { ListSource } from '../../query/run.js';
import type { DB, UsersTable } from '../../db/types.js';
import type { Resealed } from '../../security/secret-rotation.js';

export type UserRow = Selectable<UsersTable>;
export type CallerRow = Pick<
  UserRow,
  'id' | 'name' | 'email' | 'roles' | 'api_version' | 'api_key_digest'
> & {
  delegations: { sellerId: string; roles: string[] }[];
};
export type NewUserRow = Insertable<UsersTable>;

export function usersRepository(db: Kysely<DB>) {
  /**
   * An account as a caller: its identity and the roles it holds at each seller. The grants
   * are read here, with the account, because every authenticated request needs both. An
   * invitation by email grants nothing until its user accepts it (docs/security.md).
   */
  const callers = () =>
    db
      .selectFrom('users as u')
      .select(['u.id', 'u.name', 'u.email', 'u.roles', 'u.api_version', 'u.api_key_digest'])
      .select(
        sql<
          { sellerId: string; roles: string[] }[]
        >`coalesce((select json_agg(json_build_object('sellerId', d.seller_id, 'roles', d.roles)) from delegates d where d.user_id = u.id and (d.email is null or d.accepted_at is not null)), '[]'::json)`.as(
          'delegations',
        ),
      );

  return {
    /** Accounts with ROLE_SELLER, as a list source (`GET /api/sellers`). */
    sellersListSource(): ListSource<{ id: string; name: string; email: string }> {
      return listSource(
        () => db.selectFrom('users as u').where(sql<SqlBool>`'ROLE_SELLER' = any(u.roles)`),
        (q) => q.select(['u.id', 'u.name', 'u.email']),
      );
    },

    /** A seller's public profile row, or undefined when the account is not a seller. */
    /** Sellers (users with ROLE_SELLER) by id; the others are left out. */
    async findSellers(
      ids: readonly string[],
    ): Promise<{ id: string; name: string; email: string }[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom('users')
        .select(['id', 'name', 'email'])
        .where('id', 'in', ids)
        .where(sql<SqlBool>`'ROLE_SELLER' = any(roles)`)
        .execute();
    },

    /** API key ciphertexts after `afterId`, in id order (secret rotation). */
    async sealedKeys(afterId: string, limit: number): Promise<{ id: string; sealed: Buffer }[]> {
      const rows = await db
        .selectFrom('users')
        .select(['id', 'api_key_ciphertext'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, sealed: r.api_key_ciphertext }));
    },

    /** Only where the key is still the one read (`sealed.was`); false when it was replaced. */
    async setSealedKey(id: string, sealed: Resealed): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ api_key_ciphertext: sealed })
        .where('id', '=', id)
        .where('api_key_ciphertext', '=', sealed.was)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async insert(row: NewUserRow): Promise<UserRow> {
      return db
        .insertInto('users')
        .values({ ...creationStamps(), ...row })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Email addresses are unique regardless of case (see the users_email_key index). */
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirst();
    },

    /**
     * What authenticating an API key needs, in one round trip on every request: the
     * account's identity and its delegations (as JSON, so no second query).
     */
    async findCallerByApiKeyDigest(digest: Buffer): Promise<CallerRow | undefined> {
      return callers().where('u.api_key_digest', '=', digest).executeTakeFirst();
    },

    /** The same for Basic credentials, with the password hash to check. */
    async findCallerByEmail(
      email: string,
    ): Promise<(CallerRow & Pick<UserRow, 'password_hash'>) | undefined> {
      return callers()
        .select('u.password_hash')
        .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
        .executeTakeFirst();
    },

    /** `pg_notify` in the caller's transaction: listeners hear it once it commits. */
    async notify(channel: string, payload: string): Promise<void> {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },

    /** Only while `seenDigest` is still the key's (not replaced meanwhile); false otherwise. */
    async replaceApiKey(
      id: string,
      digest: Buffer,
      ciphertext: Buffer,
      seenDigest: Buffer,
    ): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({
          api_key_digest: digest,
          api_key_ciphertext: ciphertext,
          updated_at: touchedAt('users'),
        })
        .where('id', '=', id)
        .where('api_key_digest', '=', seenDigest)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Changes name, email, password and key together (a profile change); with `checkedHash`
     * only while it is still the stored hash. False when nothing was changed.
     */
    async updateProfile(
      id: string,
      changes: {
        name?: string;
        email?: string;
        password_hash?: string;
        api_key_digest?: Buffer;
        api_key_ciphertext?: Buffer;
      },
      checkedHash?: string,
    ): Promise<boolean> {
      let update = db
        .updateTable('users')
        .set({ ...changes, updated_at: touchedAt('users') })
        .where('id', '=', id);
      if (checkedHash !== undefined) update = update.where('password_hash', '=', checkedHash);
      const result = await update.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: touchedAt('users') })
        .where('id', '=', id)
        .execute();
    },

    /** Reads a user's metadata and locks the row until the transaction ends. */
    async lockMetadata(id: string): Promise<Record<string, unknown> | undefined> {
      const row = await db
        .selectFrom('users')
        .select('metadata')
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row?.metadata;
    },

    async writeMetadata(id: string, metadata: Record<string, unknown>): Promise<void> {
      await db
        .updateTable('users')
        .set({ metadata: JSON.stringify(metadata), updated_at: touchedAt('users') })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
