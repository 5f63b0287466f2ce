/**
 * What other code may ask of hooks: one hook by id (the "hook disabled" email reads it, with
 * the reseller it may belong to), the
 * sealed signing secrets (`cli rotate-secret`), resellers' webhooks (the OCTo module), and
 * disabling what a delegate made when its delegation ends (the delegates module, through
 * app-modules.ts), and the retention sweep's deletes of settled deliveries and the domain
 * events they held (src/retention.ts).
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import type { SealedStore } from '../../security/secret-rotation.js';
import { boundTo } from './hook-secrets.js';
import { hooksRepository } from './hooks.repository.js';
import { toHookView, type HookView } from './hooks.schemas.js';
import { webhookRetentionRepository } from './webhook-retention.repository.js';
import {
  createResellerHook,
  listResellerHooks,
  removeResellerHook,
  removeResellerHooks,
} from './reseller-hooks.js';

export const hooksFacade = {
  /** Resellers' webhooks (octo/webhooks): made, listed and removed by the reseller. */
  resellers: {
    create: createResellerHook,
    list: listResellerHooks,
    remove: removeResellerHook,
    removeAll: removeResellerHooks,
  },

  /**
   * The hooks of `ownerId` that `userId` made are disabled in `tx` (it no longer may manage
   * them). Nothing to tell other instances: the fan-out and the dispatcher read the table.
   * Their ids.
   */
  disableMadeBy: (tx: Tx, ownerId: string, userId: string): Promise<string[]> =>
    hooksRepository(tx).disableMadeBy(ownerId, userId),

  /** Deliveries settled more than `ageMs` ago, up to `limit` (retention). How many went. */
  pruneDeliveries: (db: Executor, ageMs: number, limit: number): Promise<number> =>
    webhookRetentionRepository(db).pruneDeliveries(ageMs, limit),

  /** Domain events older than `ageMs` nothing waits for, up to `limit` (retention). */
  pruneEvents: (db: Executor, ageMs: number, limit: number): Promise<number> =>
    webhookRetentionRepository(db).pruneEvents(ageMs, limit),

  find: async (db: Executor, id: string): Promise<HookView | undefined> => {
    const row = await hooksRepository(db).findById(id);
    return row && toHookView(row);
  },

  /**
   * A hook with the reseller credential it names (null: the owner's own), for the "hook
   * disabled" email: a reseller's receiver URL is the reseller's, and the seller cannot
   * enable it (docs/octo.md).
   */
  findWithReseller: async (
    db: Executor,
    id: string,
  ): Promise<(HookView & { resellerId: string | null }) | undefined> => {
    const row = await hooksRepository(db).findById(id);
    return row && { ...toHookView(row), resellerId: row.reseller_id };
  },

  sealedSecrets: (db: Executor): SealedStore => ({
    name: 'webhook signing secrets',
    page: (afterId, limit) => hooksRepository(db).sealedSecrets(afterId, limit),
    boundTo,
    write: (id, sealed) => hooksRepository(db).setSealedSecret(id, sealed),
  }),
};

export type HooksFacade = typeof hooksFacade;
