/** Turns guide rows into the API's Guide object. */
import type { Selectable } from 'kysely';
import type { GuidesTable } from '../../db/types.js';
import type { Schedule } from '../schedules/index.js';
import { iso, ref, refOrNull } from '../shared/index.js';
import type { GuideView } from './guides.schemas.js';

export type GuideRow = Selectable<GuidesTable>;

export const guideSchedulesOf = (row: Pick<GuideRow, 'schedules'>): Schedule[] =>
  row.schedules as unknown as Schedule[];

export function toGuideView(row: GuideRow): GuideView {
  return {
    object: 'guide',
    id: row.id,
    seller: ref(row.seller_id),
    user: refOrNull(row.user_id),
    name: row.name,
    email: row.email,
    phone: row.phone,
    bio: row.bio,
    picture: row.picture,
    schedules: guideSchedulesOf(row),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
