/**
 * What other modules may ask of events: the one seat interface (`seats`: take, move, the
 * events of departures; seats.ts) that bookings, order changes, holds and OCTo use inside
 * their transaction, the seats of departures for quotes, which departures were opened by
 * hand (with the room left on the resources they share), the guides on events (emails),
 * and a deleted guide leaving the events to come.
 */
import type { Executor } from '../../db/unit-of-work.js';
import { leaveFutureEvents } from './assignment-leave.js';
import { eventGuidesRepository } from './event-guides.repository.js';
import { eventsRepository } from './events.repository.js';
import { toEventView } from './events.schemas.js';
import { rangeAround } from './availability.js';
import {
  departuresAtStarts,
  departuresIn,
  type DepartureSeats,
  type DepartureSource,
} from './departures.js';
import { departuresRepository } from './departures.repository.js';
import {
  departuresPastBound,
  MAX_AVAILABILITY_DEPARTURES,
  type DepartureBound,
} from './departure-bound.js';
import { resourceRoom, type SharingExperience } from './resource-room.js';
import { departureKey, seats } from './seats.js';

export type { DepartureSeats, DepartureSource } from './departures.js';
export { MAX_AVAILABILITY_DEPARTURES };
export {
  departureKey,
  type SeatChange,
  type SeatDelta,
  type SeatRequest,
  type Shown,
  type Staffing,
} from './seats.js';

/** An experience whose departures are asked for; `resources` are those it shares. */
type DeparturesOf = DepartureSource & SharingExperience;

/** Each departure with its room on the resources its experience shares (resource-room.ts). */
async function withResourceRoom(
  db: Executor,
  experience: DeparturesOf,
  departures: DepartureSeats[],
): Promise<DepartureSeats[]> {
  const room = await resourceRoom(
    db,
    departures.map((d) => ({ experience, start: d.start })),
  );
  return departures.map((d, i) => (room[i] === undefined ? d : { ...d, resourceRoom: room[i] }));
}

export const eventsFacade = {
  seats,
  /**
   * The events of these experiences at these starts (one query): max, reserved and the end
   * of their window, keyed by `"<experience id> <start ISO>"`.
   */
  seatsAt: async (db: Executor, experienceIds: readonly string[], starts: readonly Date[]) => {
    const rows = await eventsRepository(db).startingAtMany(experienceIds, starts);
    return new Map(
      rows.map((r) => [
        departureKey(r.experienceId, r.start),
        { max: r.max, reserved: r.reserved, manual: r.manual, end: r.end },
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

  /**
   * How far past the bound of one request (or `bound`, a caller's own: OCTo's availability
   * check) the experience's departures between the local dates go, in words, or undefined
   * within it (departure-bound.ts; one count at most, no event read).
   */
  departuresPastBound: (
    db: Executor,
    experience: DeparturesOf,
    start: string,
    end: string,
    bound?: DepartureBound,
  ) => departuresPastBound(db, [experience], start, end, bound),

  /**
   * The departures of an experience whose local date is in `start`..`end` (both included),
   * with their seats: one range-scan query for their events (OCTo's calendar of a year).
   */
  departuresBetween: async (
    db: Executor,
    experience: DeparturesOf,
    start: string,
    end: string,
  ): Promise<DepartureSeats[]> => {
    const { from, to } = rangeAround(start, end);
    const events = await departuresRepository(db).between(experience.id, from, to);
    return withResourceRoom(db, experience, departuresIn(experience, start, end, events));
  },

  /** The departures of an experience at these starts that exist, with their seats (one query). */
  departuresAt: async (
    db: Executor,
    experience: DeparturesOf,
    starts: readonly Date[],
  ): Promise<DepartureSeats[]> => {
    if (starts.length === 0) return [];
    const rows = await eventsRepository(db).startingAtMany([experience.id], starts);
    return withResourceRoom(db, experience, departuresAtStarts(experience, starts, rows));
  },

  /** Whether a departure of the experience that has not started holds seats. */
  seatsAhead: (db: Executor, experienceId: string): Promise<boolean> =>
    eventsRepository(db).seatsAhead(experienceId),

  /**
   * Takes a deleted guide off the events that have not started, each announced as
   * `event.update` by `actorId` (assignment-leave.ts).
   */
  leaveFutureEvents,

  guidesOf: (db: Executor, eventIds: readonly string[]): Promise<Map<string, string[]>> =>
    eventGuidesRepository(db).guidesOf(eventIds),

  /**
   * An event as the API shows it, its experience's time zone, and each guide on it with its
   * name, phone and answer (a departure's manifest; one query).
   */
  async withGuides(db: Executor, id: string) {
    const row = await eventGuidesRepository(db).withGuideProfiles(id);
    if (!row) return undefined;
    const event = toEventView(row);
    const status = new Map(event.guides.map((g) => [g.guide.id, g.status]));
    return {
      event,
      timezone: row.timezone,
      guides: row.profiles.map((p) => ({ ...p, status: status.get(p.id) ?? 'confirmed' })),
    };
  },
};

export type EventsFacade = typeof eventsFacade;
