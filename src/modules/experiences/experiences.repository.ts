/** All SQL on experiences. */
import { sql, type Insertable, type Kysely, type SqlBool, type Updateable } from 'kysely';
import { creationStamps, touchedAt } from '../../db/creation-clock.js';
import { listSource } from '../../db/list-source.js';
import { prepared } from '../../db/prepared.js';
import { statement } from '../../db/statement-template.js';
import type { DB, ExperiencesTable } from '../../db/types.js';
import type { ListSource } from '../../query/run.js';
import type { ExperienceRow } from './experiences.schemas.js';
import { readRows } from '../../db/direct-read.js';

/**
 * Experiences by id, compiled once and prepared (db/statement-template.ts, db/prepared.ts),
 * as every booking reads its experiences first: a primary-key lookup whatever the ids. One
 * id (nearly every booking) has a text of its own: PostgreSQL prices the generic plan of
 * `= any($1)` for an array of ten and so planned that text afresh on every execution,
 * 2-6 % of a booking's database time (docs/performance.md, issue 27, twenty-sixth pass);
 * `= $1` keeps its generic plan after the fifth. `findById` is the same statement.
 */
const byId = statement((db, { id }: { id: string }) =>
  db.selectFrom('experiences').selectAll().where('id', '=', id),
);
const byIds = statement((db, { ids }: { ids: readonly string[] }) =>
  db
    .selectFrom('experiences')
    .selectAll()
    .where('id', '=', sql<string>`any(${ids})`),
);

export function experiencesRepository(db: Kysely<DB>) {
  return {
    listSource(): ListSource<ExperienceRow> {
      return listSource(
        () => db.selectFrom('experiences as x'),
        (q) => q.selectAll('x'),
      );
    },

    async findById(id: string): Promise<ExperienceRow | undefined> {
      return (await readRows(db, prepared(byId(db, { id }))))[0];
    },

    /**
     * Reads an experience and locks it until the transaction ends (a read-modify-write). No
     * key update: bookings inserting rows that refer to it (events, items) do not wait for
     * it, as the change may wait for their departures (docs/resources.md).
     */
    async lock(id: string): Promise<ExperienceRow | undefined> {
      return db
        .selectFrom('experiences')
        .selectAll()
        .where('id', '=', id)
        .forNoKeyUpdate()
        .executeTakeFirst();
    },

    async findMany(ids: readonly string[]): Promise<ExperienceRow[]> {
      if (ids.length === 0) return [];
      const query = ids.length === 1 ? byId(db, { id: ids[0]! }) : byIds(db, { ids });
      return readRows(db, prepared(query));
    },

    /** A seller's visible experiences, in creation order (OCTo's products). */
    async visibleOfSeller(sellerId: string): Promise<ExperienceRow[]> {
      return db
        .selectFrom('experiences')
        .selectAll()
        .where('seller_id', '=', sellerId)
        .where('visible', '=', true)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async insert(row: Insertable<ExperiencesTable>): Promise<ExperienceRow> {
      return db
        .insertInto('experiences')
        .values({ ...creationStamps(), ...row })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async update(id: string, changes: Updateable<ExperiencesTable>): Promise<ExperienceRow> {
      return db
        .updateTable('experiences')
        .set({ ...changes, updated_at: touchedAt('experiences') })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Sets guide preferences only where there are none yet; false when some exist. */
    async createGuidePreferences(
      id: string,
      preferences: Record<string, unknown>,
    ): Promise<ExperienceRow | undefined> {
      return db
        .updateTable('experiences')
        .set({ guide: JSON.stringify(preferences), updated_at: touchedAt('experiences') })
        .where('id', '=', id)
        .where('guide', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },

    /** Merges changes into existing guide preferences; undefined when there are none. */
    async updateGuidePreferences(
      id: string,
      changes: Record<string, unknown>,
    ): Promise<ExperienceRow | undefined> {
      return db
        .updateTable('experiences')
        .set({
          guide: sql`guide || ${JSON.stringify(changes)}::jsonb`,
          updated_at: touchedAt('experiences'),
        })
        .where('id', '=', id)
        .where('guide', 'is not', null)
        .returningAll()
        .executeTakeFirst();
    },

    /** Whether an experience lists the resource among those its departures use. */
    async usesResource(resourceId: string): Promise<boolean> {
      const row = await db
        .selectFrom('experiences')
        .select('id')
        .where(sql<SqlBool>`resources @> ${JSON.stringify([{ id: resourceId }])}::jsonb`)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Deletes an experience and its events; fails on a foreign key once it was booked. */
    async remove(id: string): Promise<void> {
      await db.deleteFrom('experiences').where('id', '=', id).execute();
    },
  };
}
