/**
 * The in-memory cache of verified API keys (src/modules/users/caller-cache.ts) with two
 * instances on one PostgreSQL database: a key rotated or a delegation removed through one
 * is refused by both (a rotation from its answer on, however late the other instance hears
 * of it), and while an instance's listening connection is down it reads the database on
 * every request, so nothing missed meanwhile can keep a revoked key alive.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { LISTENER_APPLICATION_NAME, openDatabase, type Database } from '../../src/db/database.js';
import { as, rememberTestApp, signUp, testConfig, type Account } from '../helpers/app.js';
import { book, item, openShop } from '../helpers/booking.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { delegate } from '../helpers/guides.js';

interface Instance {
  app: FastifyInstance;
  database: Database;
}
let instances: Instance[] = [];
let drop: () => Promise<void>;
let url: string;
// Every instance serves a cached key only while it has heard every change up to 1 s ago;
// a rotation answers 1 s after it commits (wide, so that no assertion depends on speed).
const config = testConfig({ API_KEY_CACHE_STALE_MS: '1000' });

beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  drop = () => created.drop();
  url = created.url;
  for (let i = 0; i < 2; i++) {
    const database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 4 });
    const app = await buildApp(config, { database });
    await app.ready();
    rememberTestApp(app, database, config);
    instances.push({ app, database });
  }
});
afterAll(async () => {
  for (const i of instances) {
    await i.app.close();
    await i.database.close();
  }
  instances = [];
  await drop();
});

const me = (i: Instance, who: Pick<Account, 'apiKey'>) =>
  as(i.app, who, { method: 'GET', url: '/api/users/me' }).then((r) => r.statusCode);

/** Listening connections of this database, as PostgreSQL sees them. */
const listeners = async (i: Instance) =>
  Number(
    (
      await sql<{ n: string }>`select count(*) as n from pg_stat_activity
        where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`.execute(
        i.database.db,
      )
    ).rows[0]!.n,
  );

/** Replaces a user's key digest behind the service's back: no notification is sent. */
const silentlyRevoke = (i: Instance, userId: string) =>
  sql`update users set api_key_digest = sha256(random()::text::bytea) where id = ${userId}`.execute(
    i.database.db,
  );

describe('cached API keys on two instances', () => {
  it('serve from memory, and a rotation through one is refused by both', async () => {
    const [a, b] = instances as [Instance, Instance];
    await expect.poll(() => listeners(a), { timeout: 5000 }).toBe(2);
    const user = await signUp(a.app);
    expect(await me(a, user)).toBe(200);
    expect(await me(b, user)).toBe(200);

    // Proof that the key is now answered from memory: revoked without a notification, the
    // cached key still passes. (This is why every real change notifies.)
    await silentlyRevoke(a, user.id);
    expect(await me(b, user)).toBe(200);

    const fresh = await signUp(a.app);
    await me(a, fresh);
    await me(b, fresh);
    const rotated = await as(a.app, fresh, {
      method: 'POST',
      url: `/api/users/${fresh.id}/apiKey`,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    // The rotation answers once neither instance accepts the old key any more.
    expect(await me(a, fresh)).toBe(401);
    expect(await me(b, fresh)).toBe(401);
    expect(await me(b, { apiKey: rotated.json().apiKey })).toBe(200);
  });

  it('a removed delegation ends the delegate’s access on both', async () => {
    const [a, b] = instances as [Instance, Instance];
    const shop = await openShop(a.app);
    const staff = await delegate(a.app, shop.seller, ['ROLE_RESERVATION']);
    const order = await book(a.app, shop.seller, {
      customerName: 'Ann',
      items: [item(shop.experienceId)],
    });
    const read = (i: Instance) =>
      as(i.app, staff, { method: 'GET', url: `/api/orders/${order.json().id}` }).then(
        (r) => r.statusCode,
      );
    expect(await read(a)).toBe(200);
    expect(await read(b)).toBe(200);
    const delegations = await as(a.app, shop.seller, {
      method: 'GET',
      url: `/api/users/${shop.seller.id}/delegates?user=${staff.id}`,
    });
    const removed = await as(a.app, shop.seller, {
      method: 'DELETE',
      url: `/api/users/${shop.seller.id}/delegates/${delegations.json().data[0].id}`,
    });
    expect(removed.statusCode).toBe(204);
    expect(await read(a)).toBe(404);
    await expect.poll(() => read(b), { timeout: 1000, interval: 5 }).toBe(404);
  });

  it('while the listener is down every request reads the database; after it reconnects, rotations are heard again', async () => {
    const [a, b] = instances as [Instance, Instance];
    const user = await signUp(a.app);
    expect(await me(b, user)).toBe(200);
    // The listeners picked first (a condition in the same WHERE may run for any row), then
    // each terminated and waited for: pg_terminate_backend alone only signals, and until a
    // backend has exited its listener is up and fresh, and a revocation made without a
    // notification cannot be known to anyone.
    const terminated = await sql<{ gone: boolean }>`with listening as materialized (
        select pid from pg_stat_activity
        where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()
      ) select pg_terminate_backend(pid, 5000) as gone from listening`.execute(a.database.db);
    expect(terminated.rows).toEqual([{ gone: true }, { gone: true }]);
    // Down (or already back, having emptied the cache): a silent revocation is seen at once.
    await silentlyRevoke(a, user.id);
    expect(await me(b, user)).toBe(401);
    expect(await me(a, user)).toBe(401);

    await expect.poll(() => listeners(a), { timeout: 10_000 }).toBe(2);
    const next = await signUp(a.app);
    expect(await me(b, next)).toBe(200);
    expect(await me(b, next)).toBe(200);
    const rotated = await as(a.app, next, { method: 'POST', url: `/api/users/${next.id}/apiKey` });
    expect(rotated.statusCode).toBe(200);
    expect(await me(a, next)).toBe(401);
    expect(await me(b, next)).toBe(401);
    const stranger = await signUp(b.app);
    expect(await me(a, stranger)).toBe(200);
  });

  it('a rotation answers only once an instance that hears notifications late refuses the old key', async () => {
    const [a] = instances as [Instance, Instance];
    // An instance whose notifications arrive 300 ms late (a busy event loop, a slow link):
    // were the rotation to answer at commit, the old key would keep working there for 300 ms.
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
    const late: Instance = {
      app: await buildApp(config, {
        database: {
          ...database,
          listen: (channel, handlers) =>
            database.listen(channel, {
              ...handlers,
              onMessage: (payload) => setTimeout(() => handlers.onMessage(payload), 300),
            }),
        },
      }),
      database,
    };
    try {
      await late.app.ready();
      await expect.poll(() => listeners(a), { timeout: 5000 }).toBe(3);
      // Still a cache: a key it verified is answered from memory, late notifications or not.
      const known = await signUp(a.app);
      expect(await me(late, known)).toBe(200);
      await silentlyRevoke(a, known.id);
      expect(await me(late, known)).toBe(200);

      for (let trial = 0; trial < 3; trial++) {
        const user = await signUp(a.app);
        expect(await me(late, user)).toBe(200);
        expect(await me(late, user)).toBe(200);
        const rotated = await as(a.app, user, {
          method: 'POST',
          url: `/api/users/${user.id}/apiKey`,
        });
        expect(rotated.statusCode).toBe(200);
        expect(await me(late, user)).toBe(401);
        expect(await me(late, { apiKey: rotated.json().apiKey })).toBe(200);
      }
    } finally {
      await late.app.close();
      await database.close();
    }
  });
});
