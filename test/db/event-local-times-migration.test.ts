/**
 * Migration 0023 on a database of the release before it: events written without local
 * times get them when the migrations run (`migrateAll`, which every migrating path takes),
 * from Node's zone rules, and their lists and single reads show them. The database is
 * put back at 0022 (the columns dropped, the migration unrecorded, and the later ones
 * undone: 0024 to 0029), events are inserted as that release did (the factories write no local times),
 * then the service's migrate runs.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateAll } from '../../src/migrate-all.js';
import { pendingMigrations } from '../../src/db/migrate.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';
import { insertEvent, insertExperience } from '../helpers/factories.js';

let t: TestApp;
let seller: Account;
let experienceId: string;
const events: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
  const db = t.database.db;
  await sql`alter table events drop column local_zone, drop column local_start,
    drop column local_end`.execute(db);
  // And the ones after it undone too (0024: a column of hooks; 0025: `created_by` of hooks,
  // reseller credentials and publishable keys), so 0022 is the last applied.
  await sql`alter table hooks drop column hears_private`.execute(db);
  for (const table of ['hooks', 'reseller_credentials', 'publishable_keys'])
    await sql`alter table ${sql.table(table)} drop column created_by`.execute(db);
  // 0026: the outbox's invitations deleted with them again, and the counts' indexes gone.
  await sql`alter table outbox drop constraint outbox_delegate_id_fkey,
    add constraint outbox_delegate_id_fkey foreign key (delegate_id)
      references delegates (id) on delete cascade`.execute(db);
  await sql`drop index outbox_invitations_to`.execute(db);
  await sql`drop index outbox_confirmations_to`.execute(db);
  // 0027: the retention sweep's indexes.
  await sql`drop index outbox_settled`.execute(db);
  await sql`drop index webhook_deliveries_event`.execute(db);
  // 0028 changes only collations: applied again over itself, it needs nothing undone.
  // 0029: availability's index of the events opened by hand.
  await sql`drop index events_opened_by_hand`.execute(db);
  // 0030: the claim's index of each hook's pending deliveries.
  await sql`drop index webhook_deliveries_hook_due`.execute(db);
  await sql`delete from kysely_migration where name in ('0023_event_local_times',
    '0024_hook_private_events', '0025_made_by', '0026_invitation_counts', '0027_retention',
    '0028_sortable_text_collation', '0029_events_opened_by_hand',
    '0030_webhook_deliveries_hook_due')`.execute(db);
  experienceId = await insertExperience(db, { sellerId: seller.id, timezone: 'America/St_Johns' });
  for (const start of ['2030-03-01T12:00:00Z', '2030-07-01T12:00:00Z'])
    events.push(
      await insertEvent(db, { experienceId, sellerId: seller.id, start: new Date(start) }),
    );
});
afterAll(() => t.close());

describe('migration 0023: local times of the events written before', () => {
  it('is applied by the service, which then stores every event its local times', async () => {
    expect(await pendingMigrations(t.database.db)).toEqual([
      '0023_event_local_times',
      '0024_hook_private_events',
      '0025_made_by',
      '0026_invitation_counts',
      '0027_retention',
      '0028_sortable_text_collation',
      '0029_events_opened_by_hand',
      '0030_webhook_deliveries_hook_due',
    ]);
    const applied = await migrateAll(t.database.db);
    expect(applied.map((m) => [m.migrationName, m.status])).toEqual([
      ['0023_event_local_times', 'Success'],
      ['0024_hook_private_events', 'Success'],
      ['0025_made_by', 'Success'],
      ['0026_invitation_counts', 'Success'],
      ['0027_retention', 'Success'],
      ['0028_sortable_text_collation', 'Success'],
      ['0029_events_opened_by_hand', 'Success'],
      ['0030_webhook_deliveries_hook_due', 'Success'],
    ]);
    const { rows } = await sql<{ local_zone: string; local_start: string; local_end: string }>`
      select local_zone, local_start, local_end from events where id in (${sql.join(events)})
      order by starts_at`.execute(t.database.db);
    expect(rows).toEqual([
      {
        local_zone: 'America/St_Johns',
        local_start: '2030-03-01T08:30:00-03:30',
        local_end: '2030-03-01T10:30:00-03:30',
      },
      {
        local_zone: 'America/St_Johns',
        local_start: '2030-07-01T09:30:00-02:30',
        local_end: '2030-07-01T11:30:00-02:30',
      },
    ]);
    const page = await as(t.app, seller, {
      method: 'GET',
      url: `/api/events?experience=${experienceId}&sort=start`,
    });
    expect(page.json().data.map((e: { start: string }) => e.start)).toEqual([
      '2030-03-01T08:30:00-03:30',
      '2030-07-01T09:30:00-02:30',
    ]);
    expect(await migrateAll(t.database.db)).toEqual([]);
  });
});
