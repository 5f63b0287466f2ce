import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest, pendingMigrations } from '../../src/db/migrate.js';
import { buildApp, openAppDatabase } from '../../src/app.js';
import { expectProblem, testConfig } from '../helpers/app.js';
import { createEmptyDatabase, createTestDatabase } from '../helpers/database.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.close());

describe('the database layer', () => {
  it('returns dates as YYYY-MM-DD strings and bigint/numeric as numbers', async () => {
    const { rows } = await sql<{ d: unknown; n: unknown; big: unknown; ts: unknown }>`
      select '2019-11-08'::date as d, 12.50::numeric as n, 9007199254740::bigint as big,
             '2019-11-08T10:00:00Z'::timestamptz as ts`.execute(database.db);
    expect(rows[0]).toEqual({
      d: '2019-11-08',
      n: 12.5,
      big: 9007199254740,
      ts: new Date('2019-11-08T10:00:00Z'),
    });
  });

  it('reads timestamptz as the server writes it, in any session time zone', async () => {
    const instants = [
      '2019-11-08T10:00:00Z',
      '2026-03-29T00:59:59.999Z',
      '2026-10-25T01:30:00.5Z',
      '1000-01-01T00:00:00Z',
      '0099-06-01T12:00:00Z',
      '9999-12-31T12:00:00.123Z',
    ];
    // Offsets of whole hours, half hours, quarter hours, and a local mean time's seconds.
    for (const zone of [
      'UTC',
      'Europe/Paris',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'America/St_Johns',
      'Africa/Monrovia',
    ]) {
      await database.db.connection().execute(async (one) => {
        await sql`select set_config('TimeZone', ${zone}, false)`.execute(one);
        try {
          for (const at of instants) {
            const { rows } = await sql<{ ts: Date; text: string }>`
              select ${at}::timestamptz as ts, ${at}::timestamptz::text as text`.execute(one);
            expect(rows[0]!.ts.getTime(), `${zone}: ${rows[0]!.text}`).toBe(Date.parse(at));
          }
        } finally {
          await sql`reset TimeZone`.execute(one);
        }
      });
    }
  });

  it('is migrated, and migrating again is a no-op', async () => {
    expect(await pendingMigrations(database.db)).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('rolls a failed transaction back completely', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`create table rollback_probe (x int)`.execute(trx);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await sql<{
      t: string | null;
    }>`select to_regclass('rollback_probe')::text as t`.execute(database.db);
    expect(rows[0]!.t).toBeNull();
  });
});

describe('readiness', () => {
  it('answers 503 from /readyz once the database is gone, and 200 from /healthz', async () => {
    // A server nobody listens on: connections are refused.
    const unreachable = await openDatabase({
      kind: 'postgres',
      url: 'postgres://x@127.0.0.1:9/x',
      poolSize: 1,
    });
    const app = await buildApp(testConfig({ LOG_LEVEL: 'silent' }), { database: unreachable });
    expectProblem(await app.inject({ method: 'GET', url: '/readyz' }), 503, 'service_unavailable');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // Every API request that needs the database: 503 with Retry-After, never a 500.
    for (const request of [
      { method: 'GET' as const, url: '/api/experiences' },
      { method: 'GET' as const, url: '/api/users/me', headers: { 'x-api-key': 'some-key' } },
      {
        method: 'POST' as const,
        url: '/api/users',
        payload: { name: 'N', email: 'n@example.com', password: 'long enough' },
      },
    ]) {
      const response = await app.inject(request);
      expectProblem(response, 503, 'service_unavailable');
      expect(response.headers['retry-after'], request.url).toMatch(/^\d+$/);
    }
    await app.close();
    await unreachable.close();
  });

  it('refuses to start on a schema with pending migrations when not migrating on start', async () => {
    const empty = await createEmptyDatabase();
    try {
      await expect(
        openAppDatabase(testConfig({ ...empty.env, MIGRATE_ON_START: 'false' })),
      ).rejects.toThrow(/pending: 0001_users.*npm run migrate/);
    } finally {
      await empty.drop();
    }
  });
});
