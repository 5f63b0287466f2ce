/**
 * An experience changed the resources it uses (`PUT /api/experiences/{id}`): what its
 * departures hold of them follows at once, under the same locks a booking takes
 * (docs/resources.md).
 */
import type { Tx } from '../../db/unit-of-work.js';
import { DomainError } from '../../domain/errors.js';
import { take, type ResourceUse } from './resource-take.js';
import { resourceSeatsRepository } from './resource-seats.repository.js';
import { resourcesRepository } from './resources.repository.js';

const changedUses = (before: readonly ResourceUse[], after: readonly ResourceUse[]) => {
  const was = new Map(before.map((u) => [u.id, u.seatsPerGuest]));
  const now = new Set(after.map((u) => u.id));
  return {
    dropped: before.filter((u) => !now.has(u.id)).map((u) => u.id),
    /** Added, or kept with other seats per guest: what departures hold of them is counted again. */
    recounted: after.filter((u) => was.get(u.id) !== u.seatsPerGuest).map((u) => u.id),
  };
};

/**
 * An experience's resources changed from `before` to `after` (its row, already written in
 * `tx`, lists `after`). What its departures hold follows at once: a resource dropped is no
 * longer held; one added, or kept with another `seatsPerGuest`, holds what the departures to
 * come already booked (`reserved x seatsPerGuest`), checked as a booking is: 409
 * resource_full naming the resource and the departure when it cannot carry them. Locks, in
 * the documented order: the experience's departures holding seats (start order), then the
 * resources concerned (id order); so a booking in flight either finishes first and is
 * counted here, or waits and reads the new list (`take`). Returns the ids of `after` that no
 * longer exist (deleted meanwhile: the caller refuses them). Nothing when nothing changed.
 */
export async function relist(
  tx: Tx,
  experienceId: string,
  before: readonly ResourceUse[],
  after: readonly ResourceUse[],
  now: Date,
): Promise<string[]> {
  const { dropped, recounted } = changedUses(before, after);
  if (dropped.length === 0 && recounted.length === 0) return [];
  const seats = resourceSeatsRepository(tx);
  await seats.lockDepartures(experienceId);
  const found = new Set(
    (await resourcesRepository(tx).lock([...new Set([...dropped, ...recounted])].sort())).map(
      (r) => r.id,
    ),
  );
  const missing = recounted.filter((id) => !found.has(id));
  if (missing.length > 0) return missing;
  if (dropped.length > 0)
    await seats.releaseUnused(
      experienceId,
      after.map((u) => u.id),
    );
  if (recounted.length === 0) return [];
  const uses = after.filter((u) => recounted.includes(u.id));
  const departures = await seats.departuresAhead(experienceId, now);
  try {
    await take(
      tx,
      departures.map((d) => ({
        eventId: d.id,
        start: d.starts_at,
        end: d.ends_at,
        reserved: d.reserved,
        taken: 0,
        item: 0,
        uses,
      })),
    );
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'resource_full') throw error;
    const { resource, event } = error.extra as {
      resource: { name: string };
      event: { id: string };
    };
    const departure = departures.find((d) => d.id === event.id)!;
    throw new DomainError(
      'resource_full',
      `${resource.name} cannot carry the ${departure.reserved} guests already booked on the departure at ${departure.starts_at.toISOString()} with the resources given.`,
      { resource, event, seatsLeft: 0 },
    );
  }
  return [];
}
