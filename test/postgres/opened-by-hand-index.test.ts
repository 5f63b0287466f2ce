/**
 * Availability counts the events opened by hand of its experiences before it reads any
 * departure (src/modules/events/departure-bound.ts), on every request. The count reads the
 * partial index events_opened_by_hand (migration 0029), also in the generic plan a named
 * statement settles on, not every event of the experience in the range.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { departuresRepository } from '../../src/modules/events/departures.repository.js';
import { createTestDatabase, databaseUrl } from '../helpers/database.js';
import { insertExperience, insertUser } from '../helpers/factories.js';
import { countStatements } from '../helpers/statement-counter.js';

let database: Database;
let experienceId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  const sellerId = await insertUser(db, { roles: ['ROLE_SELLER'] });
  experienceId = await insertExperience(db, { sellerId });
  // A year of hourly departures, booked (not opened by hand), and a few opened by hand.
  await sql`
    insert into events (id, experience_id, seller_id, starts_at, ends_at, max, reserved, manual,
                        created_at, updated_at)
    select substr(md5(g::text), 1, 24), ${experienceId}, ${sellerId},
           timestamptz '2030-01-01 00:00:00+00' + g * interval '1 hour',
           timestamptz '2030-01-01 01:00:00+00' + g * interval '1 hour', 10, 1,
           case when g % 1000 = 0 then true end, now(), now()
    from generate_series(0, 8759) g`.execute(db);
  await sql`analyze events`.execute(db);
});
afterAll(async () => database?.close());

describe('the count of events opened by hand', () => {
  it('reads the partial index, in the generic plan too', async () => {
    const from = new Date('2030-01-01T00:00:00Z');
    const to = new Date('2031-01-01T00:00:00Z');
    const repository = departuresRepository(database.db);
    let counted = 0;
    const [text] = await countStatements(async () => {
      counted = await repository.openedByHandBetween([experienceId], from, to, 100);
    });
    expect(counted).toBe(9);
    const name = (await sql<{ db: string }>`select current_database() as db`.execute(database.db))
      .rows[0]!.db;
    const client = new pg.Client({ connectionString: databaseUrl(name) });
    await client.connect();
    try {
      await client.query(`set plan_cache_mode = force_generic_plan`);
      await client.query(`prepare counted as ${text!}`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain execute counted('${experienceId}', '${from.toISOString()}', '${to.toISOString()}', 101)`,
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('events_opened_by_hand');
    } finally {
      await client.end();
    }
  });
});
