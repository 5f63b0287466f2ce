/** Turns event rows (with their experience's name and time zone) into the API's Event. */
import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/types.js';
import { iso, localIso, ref, type Ref } from '../shared/views.js';

export type EventRow = Selectable<EventsTable> & { title: string; timezone: string };

export interface EventView {
  object: 'event';
  id: string;
  experience: Ref;
  seller: Ref;
  title: string;
  start: string;
  end: string;
  max: number | null;
  quantity: { reserved: number };
  open: number | null;
  guides: string[];
  createdAt: string;
  updatedAt: string;
}

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
