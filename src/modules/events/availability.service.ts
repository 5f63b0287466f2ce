/**
 * Availability of an experience: its scheduled departures (and those opened by hand) over a
 * range of local dates, with the seats each still has (from the events already made), in
 * one query for the events after a count of those opened by hand (the request's bound), and
 * one more for the resources when the experiences use some (a departure's seats are no more
 * than its resources have room for). Public for visible experiences.
 */
import type { Db } from '../../db/database.js';
import type { Caller } from '../../domain/caller.js';
import { invalid } from '../../domain/errors.js';
import { experiencesFacade as experiences, type BookableExperience } from '../experiences/index.js';
import { isDate, localToInstant } from '../schedules/index.js';
import {
  MAX_AVAILABILITY_DAYS,
  availability,
  daysBetween,
  departureInstants,
  rangeAround,
} from './availability.js';
import { departuresPastBound, MAX_AVAILABILITY_DEPARTURES } from './departure-bound.js';
import { eventsRepository } from './events.repository.js';
import { resourceRoom } from './resource-room.js';

/** The most experiences one `GET /api/availability` may ask about. */
export const MAX_AVAILABILITY_EXPERIENCES = 50;

const tooMany = (departures: string) =>
  invalid(
    'query',
    'end',
    `these experiences depart ${departures} times in this window, and one request answers at most ${MAX_AVAILABILITY_DEPARTURES}: ask for fewer days or experiences`,
  );

/** Refuses a request past MAX_AVAILABILITY_DEPARTURES (departure-bound.ts), naming `end`. */
async function checkBound(
  db: Db,
  rows: readonly { id: string; schedules: BookableExperience['schedules'] }[],
  start: string,
  end: string,
): Promise<void> {
  const past = await departuresPastBound(db, rows, start, end);
  if (past !== undefined) throw tooMany(past);
}

const ID = /^[0-9a-f]{24}$/;

function checkRange(start: string, end: string): void {
  if (!isDate(start)) throw invalid('query', 'start', 'must be a real date YYYY-MM-DD');
  if (!isDate(end)) throw invalid('query', 'end', 'must be a real date YYYY-MM-DD');
  if (end < start) throw invalid('query', 'end', 'must not be before start');
  // Counted, not walked: a range of centuries is refused at once.
  if (daysBetween(start, end) > MAX_AVAILABILITY_DAYS) {
    throw invalid('query', 'end', `at most ${MAX_AVAILABILITY_DAYS} days from start`);
  }
}

/** `experience=a,b,c`: 1-50 distinct ids. */
function experienceIds(list: string): string[] {
  const ids = [...new Set(list.split(',').map((id) => id.trim()))];
  if (ids.length > MAX_AVAILABILITY_EXPERIENCES)
    throw invalid('query', 'experience', `at most ${MAX_AVAILABILITY_EXPERIENCES} experiences`);
  const bad = ids.find((id) => !ID.test(id));
  if (bad !== undefined)
    throw invalid('query', 'experience', 'must be experience ids, comma-separated');
  return ids;
}

type Days = Record<string, Record<string, number | null>>;

/**
 * Lowers each departure's open seats to what the resources its experience uses still have
 * room for, for several experiences' availability at once (one query for all).
 */
async function limitByResources(
  db: Db,
  found: readonly { experience: BookableExperience; days: Days }[],
): Promise<void> {
  const departures = found.flatMap(({ experience, days }) =>
    experience.resources.length === 0
      ? []
      : Object.entries(days).flatMap(([date, times]) =>
          Object.keys(times).flatMap((hhmm) => {
            const start = localToInstant(date, Number(hhmm), experience.timezone);
            return start ? [{ experience, start, days, date, hhmm }] : [];
          }),
        ),
  );
  const room = await resourceRoom(db, departures);
  departures.forEach(({ days, date, hhmm }, i) => {
    const open = days[date]![hhmm]!;
    if (room[i] !== undefined && (open === null || room[i] < open)) days[date]![hhmm] = room[i];
  });
}

export function availabilityService({ db }: { db: Db }) {
  return {
    async of(
      caller: Caller | null,
      id: string,
      start: string,
      end: string,
    ): Promise<Record<string, Record<string, number | null>>> {
      checkRange(start, end);
      const row = await experiences.findVisible(db, caller, id);
      await checkBound(db, [row], start, end);
      const input = {
        schedules: row.schedules,
        timezone: row.timezone,
        outingMax: row.outingMax,
        start,
        end,
      };
      const { from, to } = rangeAround(start, end);
      const booked = await eventsRepository(db).forAvailability(
        [id],
        departureInstants(input),
        from,
        to,
      );
      const days = availability(input, booked);
      await limitByResources(db, [{ experience: row, days }]);
      return days;
    },

    /**
     * Several experiences at once (a booking page showing them side by side), keyed by
     * experience id in the order asked: three queries whatever their number (the
     * experiences, the count of their events opened by hand, then every one of their events
     * in the range). Ids the caller may not see (hidden, or unknown) are left out, as a list
     * leaves out what the caller may not see.
     */
    async ofMany(
      caller: Caller | null,
      list: string,
      start: string,
      end: string,
    ): Promise<Record<string, Record<string, Record<string, number | null>>>> {
      checkRange(start, end);
      const ids = experienceIds(list);
      const rows = experiences.visibleTo(caller, await experiences.findMany(db, ids));
      await checkBound(db, rows, start, end);
      const inputs = new Map(
        rows.map((row) => [
          row.id,
          {
            schedules: row.schedules,
            timezone: row.timezone,
            outingMax: row.outingMax,
            start,
            end,
          },
        ]),
      );
      const { from, to } = rangeAround(start, end);
      const booked =
        inputs.size === 0
          ? []
          : await eventsRepository(db).forAvailability(
              [...inputs.keys()],
              [...inputs.values()].flatMap(departureInstants),
              from,
              to,
            );
      const result: Record<string, Days> = {};
      for (const id of ids) {
        const input = inputs.get(id);
        if (input)
          result[id] = availability(
            input,
            booked.filter((e) => e.experienceId === id),
          );
      }
      await limitByResources(
        db,
        rows
          .filter((row) => result[row.id])
          .map((row) => ({ experience: row, days: result[row.id]! })),
      );
      return result;
    },
  };
}

export type AvailabilityService = ReturnType<typeof availabilityService>;
