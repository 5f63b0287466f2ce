/**
 * A revoked reseller credential is refused at once on every instance (issue 25): two
 * instances on one PostgreSQL database, each with the credential cached in memory (proved by
 * a silent revocation it still passes), one revocation through the first, and from its
 * answer on both refuse the credential (the caller cache's invalidation and fence,
 * users/caller-cache.ts). The seller's other credentials keep working. The same when the
 * credential ends because the seller removed the delegate that issued it (docs/security.md).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { as, rememberTestApp, signUp, testConfig } from '../helpers/app.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { delegate } from '../helpers/guides.js';
import { createAffiliate, octo } from '../helpers/octo.js';

interface Instance {
  app: FastifyInstance;
  database: Database;
}
let instances: Instance[] = [];
let drop: () => Promise<void>;
// A revocation answers once every instance's cache can have heard of it: 1 s here, wide.
const config = testConfig({ API_KEY_CACHE_STALE_MS: '1000' });

beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  drop = () => created.drop();
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

const supplier = (i: Instance, key: string) =>
  octo(i.app, key, 'GET', '/supplier').then((r) => r.statusCode);

describe('reseller credentials on two instances', () => {
  it('are served from memory, and a revocation through one is refused by both at once', async () => {
    const [a, b] = instances as [Instance, Instance];
    const seller = await signUp(a.app, { roles: ['ROLE_SELLER'] });
    const revoked = await createAffiliate(a.app, seller, { name: 'Klook' });
    const kept = await createAffiliate(a.app, seller, { name: 'Tiqets' });
    await expect.poll(() => supplier(a, revoked.apiKey), { timeout: 5000 }).toBe(200);
    await expect.poll(() => supplier(b, revoked.apiKey), { timeout: 5000 }).toBe(200);

    // Cached: revoked behind the service's back (no notification), it still passes.
    await sql`update reseller_credentials set revoked_at = now() where id = ${revoked.id}`.execute(
      a.database.db,
    );
    expect(await supplier(b, revoked.apiKey)).toBe(200);
    await sql`update reseller_credentials set revoked_at = null where id = ${revoked.id}`.execute(
      a.database.db,
    );

    const answer = await as(a.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/affiliates/${revoked.id}`,
    });
    expect(answer.statusCode).toBe(204);
    // From the answer on, no instance accepts it.
    expect(await supplier(a, revoked.apiKey)).toBe(400);
    expect(await supplier(b, revoked.apiKey)).toBe(400);
    const body = (await octo(b.app, revoked.apiKey, 'GET', '/supplier')).json();
    expect(body.error).toBe('FORBIDDEN');
    expect(await supplier(b, kept.apiKey)).toBe(200);
  });

  it('are refused by both at once when the delegate that issued them is removed', async () => {
    const [a, b] = instances as [Instance, Instance];
    const seller = await signUp(a.app, { roles: ['ROLE_SELLER'] });
    const admin = await delegate(a.app, seller, ['ROLE_SELLER_ADMIN'], 'Fired Admin');
    const issued = await as(a.app, admin, {
      method: 'POST',
      url: `/api/users/${seller.id}/affiliates`,
      payload: { name: 'Klook' },
    });
    expect(issued.statusCode).toBe(201);
    const { apiKey } = issued.json();
    const kept = await createAffiliate(a.app, seller, { name: 'Tiqets' });
    await expect.poll(() => supplier(a, apiKey), { timeout: 5000 }).toBe(200);
    await expect.poll(() => supplier(b, apiKey), { timeout: 5000 }).toBe(200);

    const delegation = (
      await as(a.app, seller, { method: 'GET', url: `/api/users/${seller.id}/delegates` })
    ).json().data[0].id;
    const answer = await as(a.app, seller, {
      method: 'DELETE',
      url: `/api/users/${seller.id}/delegates/${delegation}`,
    });
    expect(answer.statusCode).toBe(204);
    expect(await supplier(a, apiKey)).toBe(400);
    expect(await supplier(b, apiKey)).toBe(400);
    expect(await supplier(b, kept.apiKey)).toBe(200);
  });
});
