/** Turns guide rows into the API's Guide object. */
import type { Selectable } from 'kysely';
import type { GuidesTable } from '../../db/types.js';
import type { Schedule } from '../schedules/schedule.rules.js';
import { iso, ref, refOrNull, type Ref } from '../shared/views.js';

export type GuideRow = Selectable<GuidesTable>;

export const guideSchedulesOf = (row: Pick<GuideRow, 'schedules'>): Schedule[] =>
  row.schedules as unknown as Schedule[];

export interface GuideView {
  object: 'guide';
  id: string;
  seller: Ref;
  user: Ref | null;
  name: string;
  email: string | null;
  phone: string | null;
  bio: string;
  picture: string | null;
  schedules: Schedule[];
  createdAt: string;
  updatedAt: string;
}

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
