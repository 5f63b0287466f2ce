import { it, expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { signUp, testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { book, cancel, createExperience, item } from './booking-helpers.js';

it('seller cancel on a pool of 1', async () => {
  const database = await createTestDatabase({ poolSize: 1 });
  const app = await buildApp(testConfig(), { database });
  await app.ready();
  const seller = await signUp(app, { roles: ['ROLE_SELLER'] });
  const customer = await signUp(app);
  const exp = await createExperience(app, seller);
  const a = (await book(app, customer, [item(exp)])).json().id;
  const b = (await book(app, customer, [item(exp)])).json().id;
  const timeout = (ms: number) =>
    new Promise((r) => setTimeout(() => r(`no answer after ${ms} ms`), ms));
  console.log(
    'customer cancel:',
    await Promise.race([cancel(app, customer, a).then((r) => r.statusCode), timeout(5000)]),
  );
  console.log(
    'seller cancel:',
    await Promise.race([cancel(app, seller, b).then((r) => r.statusCode), timeout(5000)]),
  );
}, 30_000);
