/**
 * What other code may ask of hooks: one hook by id (the "hook disabled" email reads it), the
 * sealed signing secrets (`cli rotate-secret`), and resellers' webhooks (the OCTo module).
 */
import type { Executor } from '../../db/unit-of-work.js';
import type { SealedStore } from '../../security/secret-rotation.js';
import { boundTo } from './hook-secrets.js';
import { hooksRepository } from './hooks.repository.js';
import { toHookView, type HookView } from './hooks.schemas.js';
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

  find: async (db: Executor, id: string): Promise<HookView | undefined> => {
    const row = await hooksRepository(db).findById(id);
    return row && toHookView(row);
  },

  sealedSecrets: (db: Executor): SealedStore => ({
    name: 'webhook signing secrets',
    page: (afterId, limit) => hooksRepository(db).sealedSecrets(afterId, limit),
    boundTo,
    write: (id, sealed) => hooksRepository(db).setSealedSecret(id, sealed),
  }),
};

export type HooksFacade = typeof hooksFacade;
