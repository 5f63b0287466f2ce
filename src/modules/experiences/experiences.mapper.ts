/** Turns experience rows into the API's Experience object. */
import type { Selectable } from 'kysely';
import type { ExperiencesTable } from '../../db/types.js';
import type { Schedule } from '../schedules/schedule.rules.js';
import { iso, ref, type Ref } from '../shared/views.js';

export type ExperienceRow = Selectable<ExperiencesTable>;

/** The stored schedules, which were validated on their way in. */
export const schedulesOf = (row: Pick<ExperienceRow, 'schedules'>): Schedule[] =>
  row.schedules as unknown as Schedule[];

export interface ExperienceView {
  object: 'experience';
  id: string;
  seller: Ref;
  name: string;
  desc: string;
  price: number;
  priceType: 'person' | 'outing';
  currency: string;
  duration: number;
  timezone: string;
  group: { orderMin: number | null; orderMax: number | null; outingMax: number | null };
  schedules: Record<string, unknown>[];
  visible: boolean;
  guide?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export function toExperienceView(row: ExperienceRow): ExperienceView {
  return {
    object: 'experience',
    id: row.id,
    seller: ref(row.seller_id),
    name: row.name,
    desc: row.description,
    price: row.price,
    priceType: row.price_type,
    currency: row.currency,
    duration: row.duration,
    timezone: row.timezone,
    group: { orderMin: row.order_min, orderMax: row.order_max, outingMax: row.outing_max },
    schedules: row.schedules,
    visible: row.visible,
    ...(row.guide ? { guide: row.guide } : {}),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
