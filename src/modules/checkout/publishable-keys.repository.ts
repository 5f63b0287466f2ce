/** All SQL on publishable keys. */
import type { Kysely, Selectable } from 'kysely';
import { creationTime } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import type { DB, PublishableKeysTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';

export type PublishableKeyRow = Selectable<PublishableKeysTable>;

export function publishableKeysRepository(db: Kysely<DB>) {
  return {
    async insert(row: {
      id: string;
      seller_id: string;
      key: string;
      label: string;
      created_by: string;
    }) {
      return db
        .insertInto('publishable_keys')
        .values({ created_at: creationTime(), ...row })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** A live (not revoked) key by its text. */
    async findLive(key: string): Promise<PublishableKeyRow | undefined> {
      return db
        .selectFrom('publishable_keys')
        .selectAll()
        .where('key', '=', key)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
    },

    /** Revokes a seller's key; the key as it was, or undefined when there is none. */
    async revoke(sellerId: string, id: string, at: Date): Promise<PublishableKeyRow | undefined> {
      return db
        .updateTable('publishable_keys')
        .set({ revoked_at: at })
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    /** Revokes the seller's live keys `userId` made; their ids. */
    async revokeMadeBy(sellerId: string, userId: string, at: Date): Promise<string[]> {
      const rows = await db
        .updateTable('publishable_keys')
        .set({ revoked_at: at })
        .where('seller_id', '=', sellerId)
        .where('created_by', '=', userId)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    listSource(): ListSource<PublishableKeyRow> {
      return listSource(
        () => db.selectFrom('publishable_keys as k'),
        (q) => q.selectAll('k'),
      );
    },
  };
}
