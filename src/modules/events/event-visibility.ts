/** Who sees an event, as reads, lists and assignment ask it. */
import type { Executor } from '../../db/unit-of-work.js';
import { accessOf } from '../../domain/access.js';
import type { Caller } from '../../domain/caller.js';
import type { Scope } from '../../query/types.js';
import { guidesFacade as guides } from '../guides/index.js';
import type { EventRow } from './events.schemas.js';

/**
 * Who sees an event: the seller's staff, and a ROLE_GUIDE delegate the events it is
 * assigned to (its guide profiles are read only for callers that hold that role).
 */
export function eventVisibility() {
  const guideIdsOf = async (db: Executor, caller: Caller): Promise<string[]> =>
    accessOf(caller).holdsRole('ROLE_GUIDE') ? guides.idsGuidedBy(db, caller) : [];

  /** Those of `events` the caller may see (one query at most, for a guide's profiles). */
  async function visible<T extends Pick<EventRow, 'seller_id' | 'guide_ids'>>(
    db: Executor,
    caller: Caller,
    events: readonly T[],
  ): Promise<T[]> {
    const access = accessOf(caller);
    const staffed = (e: T) => access.can('events', e.seller_id);
    if (events.every(staffed)) return [...events];
    const mine = await guideIdsOf(db, caller);
    return events.filter((e) => staffed(e) || e.guide_ids.some((id) => mine.includes(id)));
  }

  return {
    visible,

    async maySee(
      db: Executor,
      caller: Caller,
      event: Pick<EventRow, 'seller_id' | 'guide_ids'>,
    ): Promise<boolean> {
      return (await visible(db, caller, [event])).length > 0;
    },

    async scope(db: Executor, caller: Caller): Promise<Scope> {
      const sellers = accessOf(caller).sellersFor('events');
      if (sellers === 'all') return 'all';
      const guideIds = await guideIdsOf(db, caller);
      return {
        anyOf: [
          { field: 'seller', in: sellers },
          { field: 'guides', in: guideIds },
        ].filter((a) => a.in.length > 0),
      };
    },
  };
}
