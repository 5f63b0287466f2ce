/**
 * `cli rotate-secret` while instances serve: a value an instance replaces between the
 * rotation's page read and its write-back (a rotated API key, a hook's new signing secret,
 * a reseller credential rewritten) is kept as the instance wrote it, never overwritten by
 * the old value resealed (docs/operations.md, "Rotating BOOKING_SECRET").
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { hooksFacade } from '../../src/modules/hooks/index.js';
import { resellersFacade } from '../../src/modules/resellers/index.js';
import { usersFacade } from '../../src/modules/users/index.js';
import { createApiKeyCipher } from '../../src/security/api-keys.js';
import { resealAll, type SealedStore } from '../../src/security/secret-rotation.js';
import {
  as,
  createTestApp,
  signUp,
  testConfig,
  TEST_SECRET,
  type TestApp,
} from '../helpers/app.js';
import { createAffiliate } from '../helpers/octo.js';

const NEW_SECRET = 'the-new-secret-that-is-long-enough-0123456789';
const cipher = createApiKeyCipher(NEW_SECRET, TEST_SECRET);

let t: TestApp;
/** An instance mid-rotation: the new secret, and the old one to open what it sealed. */
let rotating: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
  rotating = await buildApp(
    testConfig({
      BOOKING_SECRET: NEW_SECRET,
      BOOKING_SECRET_PREVIOUS: TEST_SECRET,
      BOOKING_ENV: 'sandbox',
    }),
    { database: t.database, logStream: new PassThrough() },
  );
  await rotating.ready();
});
afterAll(async () => {
  await rotating?.close();
  await t.close();
});

/** `store` with `meanwhile` run once between its first page read and the write-back. */
function racing(store: SealedStore, meanwhile: () => Promise<void>): SealedStore {
  let ran = false;
  return {
    ...store,
    page: async (afterId, limit) => {
      const rows = await store.page(afterId, limit);
      if (!ran) {
        ran = true;
        await meanwhile();
      }
      return rows;
    },
  };
}

describe('rotate-secret racing an instance', () => {
  it('keeps an API key rotated between the read and the write-back', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    let newKey = '';
    const store = racing(usersFacade.sealedKeys(t.database.db), async () => {
      const rotated = await as(rotating, seller, {
        method: 'POST',
        url: `/api/users/${seller.id}/apiKey`,
      });
      expect(rotated.statusCode).toBe(200);
      newKey = rotated.json().apiKey as string;
    });
    const { checked, resealed } = await resealAll(store, cipher);

    const caller = { ...seller, apiKey: newKey };
    const shown = await as(rotating, caller, {
      method: 'GET',
      url: `/api/users/${seller.id}/apiKey`,
    });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().apiKey).toBe(newKey);
    const me = await as(rotating, caller, { method: 'GET', url: '/api/users/me' });
    expect(me.json().apiKey).toBe(newKey);
    expect(resealed).toBe(checked - 1); // every key but the one rotated meanwhile
  });

  it("keeps a hook's signing secret rotated between the read and the write-back", async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const hook = await as(t.app, seller, {
      method: 'POST',
      url: `/api/users/${seller.id}/hooks`,
      payload: { eventName: 'order.create', url: 'http://127.0.0.1:9/hook' },
    });
    expect(hook.statusCode).toBe(201);
    const url = `/api/users/${seller.id}/hooks/${hook.json().id}/secret`;
    let newSecret = '';
    const store = racing(hooksFacade.sealedSecrets(t.database.db), async () => {
      const rotated = await as(rotating, seller, { method: 'POST', url });
      expect(rotated.statusCode).toBe(200);
      newSecret = rotated.json().secret as string;
    });
    const counts = await resealAll(store, cipher);
    const read = await as(rotating, seller, { method: 'GET', url });
    expect(read.json().secret).toBe(newSecret);
    expect(counts).toEqual({ checked: 1, resealed: 0 });
  });

  it('keeps a reseller credential rewritten between the read and the write-back', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const affiliate = await createAffiliate(t.app, seller, { name: 'Klook' });
    const replacement = cipher.encrypt('rewritten-meanwhile', affiliate.id);
    const store = resellersFacade.sealedKeys(t.database.db);
    const raced = racing(store, async () => {
      await t.database.db
        .updateTable('reseller_credentials')
        .set({ key_ciphertext: replacement })
        .where('id', '=', affiliate.id)
        .execute();
    });
    const counts = await resealAll(raced, cipher);
    const [row] = await store.page('', 1);
    expect(cipher.decrypt(row!.sealed, affiliate.id)).toBe('rewritten-meanwhile');
    expect(counts).toEqual({ checked: 1, resealed: 0 });
  });
});
