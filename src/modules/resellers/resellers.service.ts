/**
 * Reseller credentials (Xola's affiliates): a seller (or its seller-admins) issues named
 * Bearer credentials for OCTo, each shown once and stored like API keys (a digest to look
 * it up, a sealed copy so an Idempotency-Key replay of the create can show it again), lists
 * them, and revokes them. A revocation answers only once no instance can accept the
 * credential any more (the caller cache's invalidation, users/caller-cache.ts); the
 * credential's holds are released in its transaction (credential-end.ts).
 */
import type { Db } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { inTransaction } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import { invalid, notFound } from '../../domain/errors.js';
import { runList } from '../../query/run.js';
import { apiKeyDigest, generateApiKey, type ApiKeyCipher } from '../../security/api-keys.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import { usersFacade as users } from '../users/index.js';
import { endCredential, type CredentialEndDeps } from './credential-end.js';
import { affiliateList } from './resellers.list.js';
import { resellersRepository } from './resellers.repository.js';
import {
  toAffiliateView,
  type AffiliateView,
  type CreateAffiliateInput,
  type CreatedAffiliateView,
} from './resellers.schemas.js';

export interface ResellersDeps extends CredentialEndDeps {
  db: Db;
  cipher: ApiKeyCipher;
  /** Resolves once no instance's credential cache can still hold a change just committed. */
  propagated: () => Promise<void>;
}

const what = (sellerId: string) => `the affiliates of seller ${sellerId}`;

export function resellersService(deps: ResellersDeps) {
  const { db, cipher, propagated } = deps;
  return {
    async create(
      caller: Caller,
      sellerId: string,
      input: CreateAffiliateInput,
      record?: Recorder,
    ): Promise<CreatedAffiliateView> {
      accessOf(caller).require('keys', sellerId, what(sellerId));
      if (!(await users.isSeller(db, sellerId))) throw invalid('path', 'id', 'is not a seller');
      const name = input.name.trim();
      if (name === '') throw invalid('body', 'name', 'must not be blank');
      const id = newId();
      const apiKey = generateApiKey();
      return recordedCreate(db, record, async (tx) => {
        const row = await resellersRepository(tx).insert({
          id,
          seller_id: sellerId,
          name,
          key_digest: apiKeyDigest(apiKey),
          key_ciphertext: cipher.encrypt(apiKey, id),
          commission_bps:
            input.commission == null ? null : Math.round(input.commission.amount * 100),
          // A delegate's credentials are revoked when its delegation ends (delegates module).
          created_by: caller.id,
        });
        return { ...toAffiliateView(row), apiKey };
      });
    },

    /** The stored answer of a create made whole again for an Idempotency-Key replay. */
    async withApiKey(view: AffiliateView): Promise<CreatedAffiliateView> {
      const row = await resellersRepository(db).findById(view.id);
      if (!row) throw notFound(`Affiliate ${view.id}`);
      return { ...view, apiKey: cipher.decrypt(row.key_ciphertext, row.id) };
    },

    /** A list the caller may not see is empty, never an error (the rule for lists). */
    list(caller: Caller, sellerId: string, query: Record<string, unknown>) {
      const allowed = accessOf(caller).can('keys', sellerId);
      return runList(
        affiliateList,
        {
          path: `/api/users/${sellerId}/affiliates`,
          query,
          scope: { anyOf: allowed ? [{ field: 'seller', in: [sellerId] }] : [] },
        },
        resellersRepository(db).listSource(),
        (rows) => rows.map(toAffiliateView),
      );
    },

    /**
     * Revokes a credential: refused from the answer on, on every instance (its cache entries
     * are dropped everywhere before this resolves). Its webhooks end with it, and so do its
     * holds: their seats are back for sale from the answer on (confirmed bookings stay).
     */
    async revoke(caller: Caller, sellerId: string, id: string): Promise<void> {
      accessOf(caller).require('keys', sellerId, what(sellerId), false);
      const revoked = await inTransaction(db, async (tx) => {
        const row = await resellersRepository(tx).revoke(sellerId, id, new Date());
        if (row) await endCredential(tx, id, deps);
        return row;
      });
      if (!revoked) throw notFound(`Affiliate ${id}`);
      await propagated();
    },
  };
}

export type ResellersService = ReturnType<typeof resellersService>;
