/** What other code may ask of hooks: one hook by id (the "hook disabled" email reads it). */
import type { Executor } from '../../db/unit-of-work.js';
import { hooksRepository, type HookRow } from './hooks.repository.js';

export const hooksFacade = {
  find: (db: Executor, id: string): Promise<HookRow | undefined> =>
    hooksRepository(db).findById(id),
};

export type HooksFacade = typeof hooksFacade;
