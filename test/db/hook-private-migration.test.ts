/**
 * Migration 0024: `hooks.hears_private`. Hooks made before it keep hearing `user.update`
 * (who made them was not recorded); a hook inserted without saying hears nothing private.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { up } from '../../src/db/migrations/0024_hook_private_events.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';

let t: TestApp;
let seller: Account;

beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' }); // loopback hook URLs
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
});
afterAll(() => t.close());

const hearsPrivate = async (id: string) =>
  (
    await sql<{
      hears: boolean;
    }>`select hears_private as hears from hooks where id = ${id}`.execute(t.database.db)
  ).rows[0]?.hears;

describe('migration 0024: which hooks hear private events', () => {
  it('keeps existing hooks hearing them, and defaults new rows to not', async () => {
    const made = await as(t.app, seller, {
      method: 'POST',
      url: `/api/users/${seller.id}/hooks`,
      payload: { eventName: '*', url: 'http://127.0.0.1:9/before' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id;
    expect(await hearsPrivate(id)).toBe(true); // made by the seller itself
    // As before the migration: no column; then the migration.
    await sql`alter table hooks drop column hears_private`.execute(t.database.db);
    await up(t.database.db as never);
    expect(await hearsPrivate(id)).toBe(true);
    const { rows } = await sql<{ column_default: string }>`
      select column_default from information_schema.columns
       where table_name = 'hooks' and column_name = 'hears_private'`.execute(t.database.db);
    expect(rows[0]!.column_default).toBe('false');
  });
});
