/** Turns experience rows into the API's Experience object. */
import type { Selectable } from 'kysely';
import type { ExperiencesTable } from '../../db/types.js';
import type { Schedule } from '../schedules/index.js';
import { iso, ref } from '../shared/index.js';
import type { ExperienceView } from './experiences.schemas.js';

export type ExperienceRow = Selectable<ExperiencesTable>;

/** The stored schedules, which were validated on their way in. */
export const schedulesOf = (row: Pick<ExperienceRow, 'schedules'>): Schedule[] =>
  row.schedules as unknown as Schedule[];

export type GuidePreferences = NonNullable<ExperienceView['guide']>;

/** The stored guide preferences (written whole on create, merged on update), if any. */
export const guidePreferencesOf = (row: Pick<ExperienceRow, 'guide'>): GuidePreferences | null =>
  row.guide as GuidePreferences | null;

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
    schedules: schedulesOf(row),
    visible: row.visible,
    ...(row.guide ? { guide: guidePreferencesOf(row)! } : {}),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
