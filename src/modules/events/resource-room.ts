/**
 * The room departures of one experience have on the resources it shares (docs/resources.md):
 * for each start, the guests its resources still fit over its window, or undefined when it
 * uses none. A departure's window is its event's, when it has one: an event keeps its end
 * after its experience's duration changed (until Xola's upsert saves it again), and a
 * booking takes the resources over the event's window. Two queries for any number of
 * experiences and starts (those windows, the loads); none when none uses a resource. Xola's
 * availability and OCTo's vacancies both lower their seats to it.
 */
import type { Executor } from '../../db/unit-of-work.js';
import { resourcesFacade, type ResourceUse } from '../resources/index.js';
import { departureKey } from './seats.js';
import { eventWindowsRepository } from './event-windows.repository.js';

export interface SharingExperience {
  id: string;
  duration: number;
  resources: readonly ResourceUse[];
}

/** The ends of the events among these departures whose end is not start plus duration. */
async function eventEnds(
  db: Executor,
  departures: readonly { experience: SharingExperience; start: Date }[],
): Promise<Map<string, Date>> {
  let [first, last] = [Infinity, -Infinity]; // a loop: a year of departures is too many arguments
  for (const { start } of departures) {
    first = Math.min(first, start.getTime());
    last = Math.max(last, start.getTime());
  }
  const rows = await eventWindowsRepository(db).otherThanDuration(
    [...new Set(departures.map((d) => d.experience.id))],
    new Date(first),
    new Date(last),
  );
  return new Map(rows.map((r) => [departureKey(r.experience_id, r.starts_at), r.ends_at]));
}

/** Room by departure, in the order asked: `asked[i]` gets `result[i]`. */
export async function resourceRoom(
  db: Executor,
  asked: readonly { experience: SharingExperience; start: Date }[],
): Promise<(number | undefined)[]> {
  const sharing = asked.filter(({ experience }) => experience.resources.length > 0);
  if (sharing.length === 0) return asked.map(() => undefined);
  const ends = await eventEnds(db, sharing);
  const departures = asked.flatMap(({ experience, start }, i) =>
    experience.resources.length === 0
      ? []
      : [
          {
            key: String(i),
            start,
            end:
              ends.get(departureKey(experience.id, start)) ??
              new Date(start.getTime() + experience.duration * 60_000),
            uses: experience.resources,
          },
        ],
  );
  const left = await resourcesFacade.guestsLeft(db, departures);
  return asked.map((_, i) => left.get(String(i))?.left);
}
