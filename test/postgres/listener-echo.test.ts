/**
 * The listening connection sends one statement at a time: barriers of the API-key cache
 * (src/modules/users/caller-cache.ts) go out on it, and under load several are sent while
 * one is on its way. pg would queue them itself, but that is deprecated and gone in pg 9
 * (a bench run at load 27 printed the warning). Every echo is still heard, in order.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME, openDatabase, type Database } from '../../src/db/database.js';
import { createTestDatabaseUrl } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  const created = await createTestDatabaseUrl();
  drop = () => created.drop();
  database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
});
afterAll(async () => {
  await database.close();
  await drop();
});

describe('the listening connection', () => {
  it('sends concurrent echoes one at a time, and every one is heard in order', async () => {
    const heard: string[] = [];
    let connected = false;
    const listening = await database.listen('echo_test', {
      onMessage: (payload) => heard.push(payload),
      onConnected: () => (connected = true),
      onDisconnected: () => (connected = false),
    });
    await eventually(async () => expect(connected).toBe(true));

    // Statements in flight on the listener's connection, counted where pg sends them.
    const prototype = pg.Client.prototype as unknown as {
      query: (...args: unknown[]) => Promise<unknown>;
    };
    const original = prototype.query;
    let inFlight = 0;
    let most = 0;
    prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const mine =
        (this as unknown as { connectionParameters?: { application_name?: string } })
          .connectionParameters?.application_name === LISTENER_APPLICATION_NAME;
      if (!mine) return original.apply(this, args);
      inFlight += 1;
      most = Math.max(most, inFlight);
      return original.apply(this, args).finally(() => (inFlight -= 1));
    };
    try {
      const sent = Array.from({ length: 30 }, (_, i) => `echo-${i}`);
      await Promise.all(sent.map((payload) => listening.echo(payload)));
      await eventually(async () => expect(heard).toEqual(sent));
      expect(most).toBe(1);
    } finally {
      prototype.query = original;
      await listening.stop();
    }
  });
});
