/**
 * The hooks' migrations. 0022: a hook hears the domain events numbered after its creation.
 * A new hook takes the events' last number when it is inserted; hooks made before the
 * migration get the number the old stamp rule implied for the events still waiting for the
 * fan-out. 0024: hooks made before it keep hearing `user.update` (who made them was not
 * recorded); a hook inserted without saying hears nothing private. 0025: hooks, reseller
 * credentials and publishable keys made before it name no maker (null), so the end of a
 * delegation ends none of them; those made after name theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { numberHooksMadeBefore } from '../../src/db/migrations/0022_hook_hears_after.js';
import { up as addHearsPrivate } from '../../src/db/migrations/0024_hook_private_events.js';
import { up as addMadeBy } from '../../src/db/migrations/0025_made_by.js';
import { newId } from '../../src/db/ids.js';
import { as, createTestApp, signUp, type Account, type TestApp } from '../helpers/app.js';

let t: TestApp;
let seller: Account;

beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' }); // loopback hook URLs
  seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
});
afterAll(() => t.close());

async function makeHook(url: string): Promise<string> {
  const response = await as(t.app, seller, {
    method: 'POST',
    url: `/api/users/${seller.id}/hooks`,
    payload: { eventName: '*', url },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const hearsAfter = async (id: string) =>
  (
    await t.database.db
      .selectFrom('hooks')
      .select('hears_after')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).hears_after;

const lastSeq = async () =>
  (
    await sql<{ last: number | null }>`select max(seq) as last from domain_events`.execute(
      t.database.db,
    )
  ).rows[0]!.last ?? 0;

async function insertEvent(createdAt: string, fannedOut: boolean): Promise<number> {
  const row = await t.database.db
    .insertInto('domain_events')
    .values({
      id: newId(),
      name: 'order.create',
      seller_id: seller.id,
      actor_id: seller.id,
      object: JSON.stringify({ object: 'order', id: newId() }),
      audit: null,
      fanned_out: fannedOut,
      created_at: new Date(createdAt),
    })
    .returning('seq')
    .executeTakeFirstOrThrow();
  return row.seq;
}

describe('migration 0022: the number a hook hears after', () => {
  it('a new hook takes the last number handed out, so the next event is heard', async () => {
    await insertEvent('2030-01-01T00:00:00Z', false);
    const id = await makeHook('http://127.0.0.1:9/new');
    expect(await hearsAfter(id)).toBe(await lastSeq());
    const next = await insertEvent('2020-01-01T00:00:00Z', false);
    expect(next).toBeGreaterThan(await hearsAfter(id));
  });

  it('hooks made before it keep what the stamps gave the events still waiting', async () => {
    const waitingBefore = await insertEvent('2031-01-01T00:00:00Z', false);
    await insertEvent('2031-01-02T00:00:00Z', true); // fanned out: never read again
    await insertEvent('2031-01-03T00:00:00Z', false);
    const middle = await makeHook('http://127.0.0.1:9/middle');
    const oldest = await makeHook('http://127.0.0.1:9/oldest');
    // created_at is never updated by the service: the old hooks' stamps are set here.
    const stamp = (id: string, at: string) =>
      sql`update hooks set created_at = ${new Date(at)}, hears_after = 999999 where id = ${id}`.execute(
        t.database.db,
      );
    await stamp(middle, '2031-01-02T12:00:00Z');
    await stamp(oldest, '2000-01-01T00:00:00Z');

    await numberHooksMadeBefore(t.database.db as unknown as Kysely<unknown>);

    expect(await hearsAfter(middle)).toBe(waitingBefore);
    expect(await hearsAfter(oldest)).toBe(0);
  });
});

describe('migration 0024: which hooks hear private events', () => {
  it('keeps existing hooks hearing them, and defaults new rows to not', async () => {
    const id = await makeHook('http://127.0.0.1:9/private');
    const hearsPrivate = async () =>
      (
        await sql<{
          hears: boolean;
        }>`select hears_private as hears from hooks where id = ${id}`.execute(t.database.db)
      ).rows[0]?.hears;
    expect(await hearsPrivate()).toBe(true); // made by the seller itself
    // As before the migration: no column; then the migration.
    await sql`alter table hooks drop column hears_private`.execute(t.database.db);
    await addHearsPrivate(t.database.db as never);
    expect(await hearsPrivate()).toBe(true);
    const { rows } = await sql<{ column_default: string }>`
      select column_default from information_schema.columns
       where table_name = 'hooks' and column_name = 'hears_private'`.execute(t.database.db);
    expect(rows[0]!.column_default).toBe('false');
  });
});

describe('migration 0025: who made hooks, reseller credentials and publishable keys', () => {
  it('leaves the rows made before it nameless, and the service names the maker after', async () => {
    const made = async () => {
      const hook = await makeHook(`http://127.0.0.1:9/made-${newId()}`);
      const affiliate = await as(t.app, seller, {
        method: 'POST',
        url: `/api/users/${seller.id}/affiliates`,
        payload: { name: 'Partner' },
      });
      const key = await as(t.app, seller, {
        method: 'POST',
        url: `/api/sellers/${seller.id}/publishable-keys`,
        payload: {},
      });
      return { hook, affiliate: affiliate.json().id, key: key.json().id };
    };
    const makers = async (ids: { hook: string; affiliate: string; key: string }) =>
      (
        await sql<{ maker: string | null }>`
          select created_by as maker from hooks where id = ${ids.hook}
          union all select created_by from reseller_credentials where id = ${ids.affiliate}
          union all select created_by from publishable_keys where id = ${ids.key}`.execute(
          t.database.db,
        )
      ).rows.map((r) => r.maker);

    const before = await made();
    // As before the migration: no columns; then the migration.
    for (const table of ['hooks', 'reseller_credentials', 'publishable_keys'])
      await sql`alter table ${sql.table(table)} drop column created_by`.execute(t.database.db);
    await addMadeBy(t.database.db as never);
    expect(await makers(before)).toEqual([null, null, null]);

    const after = await made();
    expect(await makers(after)).toEqual([seller.id, seller.id, seller.id]);
    const hook = await as(t.app, seller, {
      method: 'GET',
      url: `/api/users/${seller.id}/hooks/${before.hook}`,
    });
    expect(hook.json().createdBy).toBeNull();
  });
});
