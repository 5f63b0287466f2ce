/**
 * Rotating BOOKING_SECRET (docs/operations.md): with the new secret and the previous one,
 * every API key and webhook signing secret is re-encrypted under the new secret; an instance
 * configured with the new secret alone then reads them all, the same as before. Running the
 * rotation again changes nothing.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { hooksFacade } from '../../src/modules/hooks/index.js';
import { usersFacade } from '../../src/modules/users/index.js';
import { createApiKeyCipher } from '../../src/security/api-keys.js';
import { resealAll } from '../../src/security/secret-rotation.js';
import {
  as,
  createTestApp,
  signUp,
  testConfig,
  TEST_SECRET,
  type TestApp,
} from '../helpers/app.js';

const NEW_SECRET = 'the-new-secret-that-is-long-enough-0123456789';

let t: TestApp;
let rotated: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({ BOOKING_ENV: 'sandbox' });
});
afterAll(async () => {
  await rotated?.close();
  await t.close();
});

describe('rotating BOOKING_SECRET', () => {
  it('re-encrypts keys and hook secrets so that the new secret alone reads them', async () => {
    const seller = await signUp(t.app, { roles: ['ROLE_SELLER'] });
    const hook = await as(t.app, seller, {
      method: 'POST',
      url: `/api/users/${seller.id}/hooks`,
      payload: { eventName: 'order.create', url: 'http://127.0.0.1:9/hook' },
    });
    expect(hook.statusCode).toBe(201);
    const secret = hook.json().secret as string;

    const cipher = createApiKeyCipher(NEW_SECRET, TEST_SECRET);
    const db = t.database.db;
    const keys = await resealAll(usersFacade.sealedKeys(db), cipher);
    const secrets = await resealAll(hooksFacade.sealedSecrets(db), cipher);
    expect(keys.resealed).toBe(keys.checked);
    expect(keys.checked).toBeGreaterThanOrEqual(1);
    expect(secrets).toEqual({ checked: 1, resealed: 1 });
    expect(await resealAll(usersFacade.sealedKeys(db), cipher)).toEqual({
      checked: keys.checked,
      resealed: 0,
    });

    rotated = await buildApp(testConfig({ BOOKING_SECRET: NEW_SECRET, BOOKING_ENV: 'sandbox' }), {
      database: t.database,
      logStream: new PassThrough(),
    });
    await rotated.ready();
    const key = await as(rotated, seller, { method: 'GET', url: `/api/users/${seller.id}/apiKey` });
    expect(key.statusCode).toBe(200);
    expect(key.json().apiKey).toBe(seller.apiKey);
    const read = await as(rotated, seller, {
      method: 'GET',
      url: `/api/users/${seller.id}/hooks/${hook.json().id}/secret`,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().secret).toBe(secret);
  });
});
