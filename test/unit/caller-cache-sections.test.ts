/**
 * Sections of the key cache (src/modules/users/caller-cache.ts): another kind of credential
 * (resellers' Bearer credentials) kept beside API keys on the same channel. Entries of the two
 * kinds are keyed apart (the same digest in each is two entries), and an entry is dropped
 * when any id it names (the credential's, its seller's) is announced; a read that started
 * before an announcement is not kept.
 */
import { describe, expect, it } from 'vitest';
import type { Database, ListenHandlers } from '../../src/db/database.js';
import type { Caller, Reseller } from '../../src/domain/caller.js';
import { createCallerCache } from '../../src/modules/users/caller-cache.js';

/** The embedded database's LISTEN: what is announced is heard at once. */
function embedded() {
  let handlers: ListenHandlers | undefined;
  const database: Pick<Database, 'listen' | 'kind'> = {
    kind: 'pglite',
    listen: async (_channel, h) => {
      handlers = h;
      h.onConnected();
      return { echo: async () => undefined, stop: async () => undefined };
    },
  };
  return { database, announce: (id: string) => handlers!.onMessage(id) };
}

const caller: Caller = {
  id: 'seller-1',
  name: 'Seller',
  email: 'seller@example.com',
  roles: ['ROLE_SELLER'],
  apiVersion: '2026-11-25',
  delegations: new Map(),
};
const reseller: Reseller = {
  resellerId: 'credential-1',
  sellerId: 'seller-1',
  name: 'Klook',
  commissionBps: 1250,
};
const digest = Buffer.from('one digest').toString('base64');

async function setUp() {
  const db = embedded();
  const cache = await createCallerCache(db.database);
  const resellers = cache.section<Reseller>('reseller', (r) => [r.resellerId!, r.sellerId]);
  return { ...db, cache, resellers };
}

describe('key cache sections', () => {
  it('keeps each kind of credential apart', async () => {
    const { cache, resellers } = await setUp();
    resellers.put(digest, reseller, resellers.generation());
    expect(await resellers.get(digest)).toEqual(reseller);
    expect(await cache.get(digest)).toBeUndefined();
    cache.put(digest, caller, cache.generation());
    expect(await cache.get(digest)).toEqual(caller);
    expect(await resellers.get(digest)).toEqual(reseller);
  });

  it('drops an entry when its credential or its seller is announced', async () => {
    for (const announced of ['credential-1', 'seller-1']) {
      const { announce, resellers } = await setUp();
      resellers.put(digest, reseller, resellers.generation());
      announce('someone-else');
      expect(await resellers.get(digest)).toEqual(reseller);
      announce(announced);
      expect(await resellers.get(digest)).toBeUndefined();
    }
  });

  it('does not keep a read that started before an announcement', async () => {
    const { announce, resellers } = await setUp();
    const readAt = resellers.generation();
    announce('credential-1');
    resellers.put(digest, reseller, readAt);
    expect(await resellers.get(digest)).toBeUndefined();
  });
});
