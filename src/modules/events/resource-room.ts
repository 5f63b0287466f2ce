/**
 * The room departures of one experience have on the resources it shares (docs/resources.md):
 * for each start, the guests its resources still fit over its window, or undefined when it
 * uses none. One query for any number of experiences and starts; none when none uses a
 * resource. Xola's availability and OCTo's vacancies both lower their seats to it.
 */
import type { Executor } from '../../db/unit-of-work.js';
import { resourcesFacade, type ResourceUse } from '../resources/index.js';

export interface SharingExperience {
  id: string;
  duration: number;
  resources: readonly ResourceUse[];
}

/** Room by departure, in the order asked: `asked[i]` gets `result[i]`. */
export async function resourceRoom(
  db: Executor,
  asked: readonly { experience: SharingExperience; start: Date }[],
): Promise<(number | undefined)[]> {
  const departures = asked.flatMap(({ experience, start }, i) =>
    experience.resources.length === 0
      ? []
      : [
          {
            key: String(i),
            start,
            end: new Date(start.getTime() + experience.duration * 60_000),
            uses: experience.resources,
          },
        ],
  );
  if (departures.length === 0) return asked.map(() => undefined);
  const left = await resourcesFacade.guestsLeft(db, departures);
  return asked.map((_, i) => left.get(String(i))?.left);
}
