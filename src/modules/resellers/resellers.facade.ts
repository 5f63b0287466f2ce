/**
 * What other modules may ask of resellers: a credential by id (whose booking an OCTo
 * webhook goes to, the name and commission a booking shows), and the sealed secrets for
 * `cli rotate-secret`.
 */
import type { Executor } from '../../db/unit-of-work.js';
import type { Reseller } from '../../domain/caller.js';
import type { SealedStore } from '../../security/secret-rotation.js';
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

  sealedKeys: (db: Executor): SealedStore => ({
    name: 'reseller credentials',
    page: (afterId, limit) => resellersRepository(db).sealedKeys(afterId, limit),
    boundTo: (id) => id,
    write: (id, sealed) => resellersRepository(db).setSealedKey(id, sealed),
  }),
};

export type ResellersFacade = typeof resellersFacade;
