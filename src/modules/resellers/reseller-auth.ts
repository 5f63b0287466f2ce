/**
 * A Bearer secret sent to /octo as the reseller it belongs to: looked up by digest (the
 * secret itself is never stored), a live credential of a seller that still is one, and
 * kept in the caller cache's reseller section while every change is heard (a revocation
 * drops it on every instance before it answers: users/caller-cache.ts).
 */
import type { Db } from '../../db/database.js';
import type { Reseller } from '../../domain/caller.js';
import {
  MAX_API_KEY_LENGTH,
  apiKeyDigestText,
  digestBytes,
  digestsEqual,
} from '../../security/api-keys.js';
import type { CredentialCache } from '../users/index.js';
import { resellersRepository } from './resellers.repository.js';

/** The owners a cached reseller is dropped for: its credential, and its seller's account. */
export const resellerOwners = (reseller: Reseller): readonly string[] => [
  reseller.resellerId!,
  reseller.sellerId,
];

export function resellerAuthentication({
  db,
  cache,
}: {
  db: Db;
  /** Without one, every request reads the database. */
  cache?: CredentialCache<Reseller>;
}) {
  return {
    /** The reseller of a credential verified lately (from memory, no query), if any. */
    async cached(secret: string): Promise<Reseller | undefined> {
      if (secret.length === 0 || secret.length > MAX_API_KEY_LENGTH) return undefined;
      return cache?.get(apiKeyDigestText(secret));
    },

    /** The reseller of a live credential, or undefined (not a reseller credential). */
    async bySecret(secret: string): Promise<Reseller | undefined> {
      if (secret.length === 0 || secret.length > MAX_API_KEY_LENGTH) return undefined;
      const digest = apiKeyDigestText(secret);
      const known = await cache?.get(digest);
      if (known) return known;
      const generation = cache?.generation() ?? 0;
      const bytes = digestBytes(digest);
      const row = await resellersRepository(db).findLiveByDigest(bytes);
      if (!row || !digestsEqual(row.key_digest, bytes)) return undefined;
      const reseller: Reseller = {
        resellerId: row.id,
        sellerId: row.seller_id,
        name: row.name,
        commissionBps: row.commission_bps,
      };
      cache?.put(digest, reseller, generation);
      return reseller;
    },
  };
}

export type ResellerAuthentication = ReturnType<typeof resellerAuthentication>;
