/**
 * What other modules may ask of events: the one seat interface (`seats`: take, move, the
 * events of departures; seats.ts) that bookings, order changes, holds and OCTo use inside
 * their transaction, the seats of departures for quotes, which departures were opened by
 * hand, the guides on events (emails), and a deleted guide leaving the events to come.
 */
import type { Executor, Tx } from '../../db/unit-of-work.js';
import { eventGuidesRepository } from './event-guides.repository.js';
import { eventsRepository } from './events.repository.js';
import { departureKey, seats } from './seats.js';

export {
  departureKey,
  type SeatChange,
  type SeatDelta,
  type SeatRequest,
  type Shown,
  type Staffing,
} from './seats.js';

export const eventsFacade = {
  seats,
  /**
   * The events of these experiences at these starts (one query): max and reserved, keyed by
   * `"<experience id> <start ISO>"`.
   */
  seatsAt: async (db: Executor, experienceIds: readonly string[], starts: readonly Date[]) => {
    const rows = await eventsRepository(db).startingAtMany(experienceIds, starts);
    return new Map(
      rows.map((r) => [
        departureKey(r.experienceId, r.start),
        { max: r.max, reserved: r.reserved, manual: r.manual },
      ]),
    );
  },

  /**
   * Which of these departures (experience and start, pairwise) are events opened by hand,
   * as `"<experience id> <start ISO>"` (one query).
   */
  openedByHand: async (
    db: Executor,
    experienceIds: readonly string[],
    starts: readonly Date[],
  ): Promise<Set<string>> => {
    const rows = await eventsRepository(db).startingAtMany([...new Set(experienceIds)], starts);
    return new Set(
      rows.filter((r) => r.manual === true).map((r) => departureKey(r.experienceId, r.start)),
    );
  },

  leaveFutureEvents: (tx: Tx, guideId: string, now: Date): Promise<void> =>
    eventGuidesRepository(tx).removeGuideFromFuture(guideId, now),

  guidesOf: (db: Executor, eventIds: readonly string[]): Promise<Map<string, string[]>> =>
    eventGuidesRepository(db).guidesOf(eventIds),
};

export type EventsFacade = typeof eventsFacade;
