/**
 * The departures OCTo's availability and calendar read, each read bounded before it is
 * made: a range by the departures one request may compute (events/departure-bound.ts, the
 * API's bound), an availability check's range by the size of its answer instead, a tighter
 * bound counted the same way (check-bound.ts), availability ids by the body's
 * MAX_AVAILABILITY_IDS.
 */
import type { Db } from '../../db/database.js';
import { eventsFacade, MAX_AVAILABILITY_DEPARTURES } from '../events/index.js';
import {
  checkAnswerSize,
  departuresFitting,
  refuseCheck,
  scheduledBetween,
} from './check-bound.js';
import { startOfAvailabilityId, type Departure, type Product } from './departures.js';
import { fail } from './octo.errors.js';
import type { DateRange } from './requests.js';

type Experience = Parameters<typeof eventsFacade.departuresBetween>[1];

export function departureReads(db: Db) {
  /**
   * The product's departures between the local dates, refused past the bound of one
   * request (the API's availability has the same: its events opened by hand count).
   */
  const between = async (experience: Experience, start: string, end: string) => {
    const past = await eventsFacade.departuresPastBound(db, experience, start, end);
    if (past !== undefined)
      fail(
        'BAD_REQUEST',
        `this product departs ${past} times in these dates, and one request answers at most ${MAX_AVAILABILITY_DEPARTURES}: ask for fewer dates`,
      );
    return eventsFacade.departuresBetween(db, experience, start, end);
  };

  return {
    between,

    /**
     * An availability check's departures between the dates, each carrying `prices` prices,
     * refused past the bound of its answer: as the schedules count them, before anything is
     * read; then, still before any event is read, when the schedules' and the events opened
     * by hand pass twice that bound (one count, stopping one past the room left); then as
     * read, before any is mapped. The count runs high (an event opened by hand beside the
     * range, or at a scheduled time, counts too), so it refuses only past twice the bound,
     * where no read could fit: at the bound itself it refused checks that fit. The read is
     * so bounded by twice the answer's bound, under the request's 100,000 (`between`).
     */
    async checked(experience: Experience, { start, end }: DateRange, prices: number) {
      const fitting = departuresFitting(prices);
      const scheduled = scheduledBetween(experience.schedules, start, end, fitting);
      checkAnswerSize(scheduled, prices);
      const past = await eventsFacade.departuresPastBound(db, experience, start, end, {
        most: 2 * fitting,
        scheduled,
      });
      if (past !== undefined) refuseCheck(past, prices);
      const departures = await eventsFacade.departuresBetween(db, experience, start, end);
      checkAnswerSize(departures.length, prices);
      return departures;
    },

    /** The departures at these availability ids, each there, else INVALID_AVAILABILITY_ID. */
    async atIds(
      experience: Experience,
      product: Product,
      ids: readonly string[],
    ): Promise<Departure[]> {
      const starts = ids.map(
        (id) => startOfAvailabilityId(product, id) ?? fail('INVALID_AVAILABILITY_ID', id),
      );
      const departures = await eventsFacade.departuresAt(db, experience, starts);
      const found = new Set(departures.map((d) => d.start.getTime()));
      const missing = ids.find((_, i) => !found.has(starts[i]!.getTime()));
      if (missing !== undefined) fail('INVALID_AVAILABILITY_ID', missing);
      return departures;
    },
  };
}
