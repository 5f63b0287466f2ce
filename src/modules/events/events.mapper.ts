/** Turns event rows (with their experience's name and time zone) into the API's Event. */
import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/types.js';
import { iso, localIso, ref } from '../shared/index.js';
import type { EventView } from './events.schemas.js';

export type EventRow = Selectable<EventsTable> & { title: string; timezone: string };

export function toEventView(row: EventRow): EventView {
  return {
    object: 'event',
    id: row.id,
    experience: ref(row.experience_id),
    seller: ref(row.seller_id),
    title: row.title,
    start: localIso(row.starts_at, row.timezone),
    end: localIso(row.ends_at, row.timezone),
    max: row.max,
    quantity: { reserved: row.reserved },
    open: row.max === null ? null : row.max - row.reserved,
    guides: row.guide_ids,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
