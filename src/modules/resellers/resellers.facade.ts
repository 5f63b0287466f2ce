/**
 * What other modules may ask of resellers: a credential by id (whose booking an OCTo
 * webhook goes to, the name and commission a booking shows), the sealed secrets for
 * `cli rotate-secret`, and revoking what a delegate made when its delegation ends (the
 * delegates module, through app-modules.ts).
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import type { Reseller } from '../../domain/caller.js';
import type { SealedStore } from '../../security/secret-rotation.js';
import { endCredential, type CredentialEndDeps } from './credential-end.js';
import { resellersRepository } from './resellers.repository.js';

export const resellersFacade = {
  /** A credential, revoked or not, as the reseller it stands for. */
  async find(db: Executor, id: string): Promise<(Reseller & { revoked: boolean }) | undefined> {
    const row = await resellersRepository(db).findById(id);
    return (
      row && {
        resellerId: row.id,
        sellerId: row.seller_id,
        name: row.name,
        commissionBps: row.commission_bps,
        revoked: row.revoked_at !== null,
      }
    );
  },

  /**
   * Revokes the live credentials of `sellerId` that `userId` made, in `tx`, as the seller's
   * revocation does (their webhooks removed, their holds released with their events sent to
   * `deps.domainEvents`, every instance told at commit). Their ids; the caller answers once
   * every instance must have heard (the caller cache's `propagated`).
   */
  revokeMadeBy: async (
    tx: Tx,
    sellerId: string,
    userId: string,
    deps: CredentialEndDeps = {},
  ): Promise<string[]> => {
    const ids = await resellersRepository(tx).revokeMadeBy(sellerId, userId, new Date());
    for (const id of ids) await endCredential(tx, id, deps);
    return ids;
  },

  sealedKeys: (db: Executor): SealedStore => ({
    name: 'reseller credentials',
    page: (afterId, limit) => resellersRepository(db).sealedKeys(afterId, limit),
    boundTo: (id) => id,
    write: (id, sealed) => resellersRepository(db).setSealedKey(id, sealed),
  }),
};

export type ResellersFacade = typeof resellersFacade;
