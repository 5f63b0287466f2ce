/**
 * The row a new event of a departure gets, and its local start and end, kept on the row as
 * its view shows them (ISO 8601 with the experience's offset, `localIso`'s text), with the
 * zone they were written in.
 *
 * Why they are stored: the list of events is built by PostgreSQL as JSON text (event-json.ts),
 * and an event's local time needs the zone rules Node reads (Intl), which PostgreSQL's own
 * need not match. Every write of an event's instants writes these (`localTimesOf`); a row
 * whose `local_zone` is not its experience's zone (the experience moved to another zone,
 * or an older release wrote the row) is shown from Node's rules instead and refilled
 * (`fillLocalTimes`). Once written, an event keeps its local text when a later tz database
 * changes the rules of its zone, as an order item keeps its local arrival
 * (docs/decisions/event-local-times.md).
 */
import type { Kysely } from 'kysely';
import { newId } from '../../db/ids.js';
import type { DB } from '../../db/types.js';
import type { BookableExperience } from '../experiences/index.js';
import { localIso } from '../shared/index.js';
import { eventLocalTimesRepository } from './event-local-times.repository.js';
import type { NewEventRow } from './events.repository.js';

export interface LocalTimes {
  local_zone: string;
  local_start: string;
  local_end: string;
}

export const localTimesOf = (start: Date, end: Date, zone: string): LocalTimes => ({
  local_zone: zone,
  local_start: localIso(start, zone),
  local_end: localIso(end, zone),
});

/** The event of `experience` at `start` (its capacity `max`, the experience's by default). */
export function newEventAt(
  sellerId: string,
  experience: Pick<BookableExperience, 'id' | 'duration' | 'timezone' | 'outingMax'>,
  start: Date,
  max: number | null = experience.outingMax,
): NewEventRow {
  const end = new Date(start.getTime() + experience.duration * 60_000);
  return {
    id: newId(),
    experience_id: experience.id,
    seller_id: sellerId,
    starts_at: start,
    ends_at: end,
    max,
    ...localTimesOf(start, end, experience.timezone),
  };
}

/** Rows refilled per statement. */
const BATCH = 5_000;

/**
 * Writes the local times of the events whose `local_zone` is not their experience's zone:
 * these `ids` only, or every such event (after migrations: migrate-all.ts; the seed), a batch
 * at a time in id order. Not a change of the event (its `updated_at` stays): the same view,
 * stored. Returns how many rows it wrote.
 */
export async function fillLocalTimes(
  db: Kysely<DB>,
  ids?: readonly string[],
  batch = BATCH,
): Promise<number> {
  if (ids?.length === 0) return 0;
  const events = eventLocalTimesRepository(db);
  let written = 0;
  let after = '';
  for (;;) {
    const rows = await events.stale(after, batch, ids);
    if (rows.length === 0) return written;
    await events.write(
      rows.map((r) => ({ id: r.id, ...localTimesOf(r.starts_at, r.ends_at, r.timezone) })),
    );
    written += rows.length;
    if (rows.length < batch) return written;
    after = rows[rows.length - 1]!.id;
  }
}
