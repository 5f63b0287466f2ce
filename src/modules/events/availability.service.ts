/**
 * Availability of an experience: its scheduled departures over a range of local dates, with
 * the seats each still has (from the events already made). Public for visible experiences.
 */
import type { Db } from '../../db/database.js';
import type { Caller } from '../../domain/caller.js';
import { invalid } from '../../domain/errors.js';
import type { ExperiencesFacade } from '../experiences/index.js';
import { isDate } from '../schedules/index.js';
import {
  MAX_AVAILABILITY_DAYS,
  availability,
  daysBetween,
  departureInstants,
} from './availability.js';
import { eventsRepository } from './events.repository.js';

export function availabilityService({
  db,
  experiences,
}: {
  db: Db;
  experiences: ExperiencesFacade;
}) {
  return {
    async of(
      caller: Caller | null,
      id: string,
      start: string,
      end: string,
    ): Promise<Record<string, Record<string, number | null>>> {
      if (!isDate(start)) throw invalid('query', 'start', 'must be a real date YYYY-MM-DD');
      if (!isDate(end)) throw invalid('query', 'end', 'must be a real date YYYY-MM-DD');
      if (end < start) throw invalid('query', 'end', 'must not be before start');
      // Counted, not walked: a range of centuries is refused at once.
      if (daysBetween(start, end) > MAX_AVAILABILITY_DAYS) {
        throw invalid('query', 'end', `at most ${MAX_AVAILABILITY_DAYS} days from start`);
      }
      const row = await experiences.findVisible(db, caller, id);
      const input = {
        schedules: experiences.schedulesOf(row),
        timezone: row.timezone,
        outingMax: row.outing_max,
        start,
        end,
      };
      const instants = departureInstants(input);
      const booked =
        instants.length === 0 ? [] : await eventsRepository(db).startingAt(id, instants);
      return availability(input, booked);
    },
  };
}

export type AvailabilityService = ReturnType<typeof availabilityService>;
