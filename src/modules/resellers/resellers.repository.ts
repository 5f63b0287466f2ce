/** All SQL on reseller credentials. */
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { creationTime } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type { DB, ResellerCredentialsTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { Resealed } from '../../security/secret-rotation.js';

export type ResellerCredentialRow = Selectable<ResellerCredentialsTable>;

export function resellersRepository(db: Kysely<DB>) {
  return {
    async insert(row: {
      id: string;
      seller_id: string;
      name: string;
      key_digest: Buffer;
      key_ciphertext: Buffer;
      commission_bps: number | null;
      created_by: string;
    }): Promise<ResellerCredentialRow> {
      return db
        .insertInto('reseller_credentials')
        .values({ created_at: creationTime(), ...row })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** A live (not revoked) credential by its secret's digest, of a seller that still is one. */
    async findLiveByDigest(digest: Buffer): Promise<ResellerCredentialRow | undefined> {
      return db
        .selectFrom('reseller_credentials as r')
        .innerJoin('users as u', 'u.id', 'r.seller_id')
        .selectAll('r')
        .where('r.key_digest', '=', digest)
        .where('r.revoked_at', 'is', null)
        .where(sql<SqlBool>`'ROLE_SELLER' = any(u.roles)`)
        .executeTakeFirst();
    },

    async findById(id: string): Promise<ResellerCredentialRow | undefined> {
      return db
        .selectFrom('reseller_credentials')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Revokes a seller's credential; the credential as it was, or undefined when there is none.
     * Its row stays locked until the transaction ends (as with `revokeMadeBy`): the lock a
     * webhook's creation takes (credential-end.ts).
     */
    async revoke(
      sellerId: string,
      id: string,
      at: Date,
    ): Promise<ResellerCredentialRow | undefined> {
      return db
        .updateTable('reseller_credentials')
        .set({ revoked_at: at })
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    /** Revokes the seller's live credentials `userId` made; their ids. */
    async revokeMadeBy(sellerId: string, userId: string, at: Date): Promise<string[]> {
      const rows = await db
        .updateTable('reseller_credentials')
        .set({ revoked_at: at })
        .where('seller_id', '=', sellerId)
        .where('created_by', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    listSource(): ListSource<ResellerCredentialRow> {
      return listSource(
        () => db.selectFrom('reseller_credentials as r'),
        (q) => q.selectAll('r'),
      );
    },

    /** Sealed secrets a page at a time, for `cli rotate-secret`. */
    async sealedKeys(afterId: string, limit: number): Promise<{ id: string; sealed: Buffer }[]> {
      const rows = await db
        .selectFrom('reseller_credentials')
        .select(['id', 'key_ciphertext'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, sealed: r.key_ciphertext }));
    },

    /** Only where the secret is still the one read (`sealed.was`); false when it was replaced. */
    async setSealedKey(id: string, sealed: Resealed): Promise<boolean> {
      const result = await db
        .updateTable('reseller_credentials')
        .set({ key_ciphertext: sealed })
        .where('id', '=', id)
        .where('key_ciphertext', '=', sealed.was)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
