/**
 * The Guide object (its schema, view type, and how a row becomes it) and the request
 * bodies of the guides endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf, refTo } from '../../http/schemas.js';
import { Hhmm, iso, MAX_SCHEDULES, ref, ScheduleFields } from '../shared/index.js';
import type { Selectable } from 'kysely';
import type { GuidesTable } from '../../db/types.js';
import type { Schedule } from '../schedules/index.js';

const GuideTimeRange = Type.Object(
  {
    startTime: Hhmm,
    endTime: Type.Integer({
      minimum: 0,
      maximum: 2400,
      description: 'HHMM; 2400 = midnight at the end of the day',
    }),
  },
  { additionalProperties: false },
);

const guideScheduleFields = {
  ...ScheduleFields,
  timeRanges: Type.Optional(
    Type.Array(GuideTimeRange, {
      maxItems: 24,
      description: 'Working hours; empty or absent = all day',
    }),
  ),
};

export const GuideScheduleBody = Type.Object(guideScheduleFields, { additionalProperties: false });

export const GuideSchedule = Type.Object(
  { id: Id, ...guideScheduleFields },
  { $id: 'GuideSchedule' },
);

const profile = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  bio: Type.Optional(Type.String({ maxLength: 5000 })),
  picture: Type.Optional(
    Nullable(Type.String({ format: 'uri', maxLength: 2000, description: 'URL of a photo' })),
  ),
  user: Type.Optional(
    Nullable(
      Type.Object(
        { id: Id },
        { additionalProperties: false, description: 'A linked user account' },
      ),
    ),
  ),
};

export const CreateGuideBody = Type.Object(
  {
    ...profile,
    schedules: Type.Optional(Type.Array(GuideScheduleBody, { maxItems: MAX_SCHEDULES })),
  },
  { additionalProperties: false },
);

export const UpdateGuideBody = Type.Object(
  {
    name: Type.Optional(profile.name),
    email: profile.email,
    phone: profile.phone,
    bio: profile.bio,
    picture: profile.picture,
    user: profile.user,
  },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change' },
);

export const Guide = Type.Object(
  {
    object: Type.Literal('guide'),
    id: Id,
    seller: Ref,
    user: Type.Object(
      { id: Nullable(Id) },
      {
        description:
          'The linked account; always an object (Xola clients read `user.id`), `{"id": null}` when none',
      },
    ),
    name: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    bio: Type.String(),
    picture: Nullable(Type.String()),
    schedules: Type.Array(refTo(GuideSchedule)),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Guide' },
);
export type GuideView = Static<typeof Guide>;
export const GuideList = listOf(Guide);

export const SellerParams = Type.Object({ id: Id });
export const GuideParams = Type.Object({ id: Id, guideId: Id });
export const GuideScheduleParams = Type.Object({ id: Id, guideId: Id, scheduleId: Id });

export type GuideRow = Selectable<GuidesTable>;

export const guideSchedulesOf = (row: Pick<GuideRow, 'schedules'>): Schedule[] =>
  row.schedules as unknown as Schedule[];

/**
 * A guide as other modules see it (assignment, emails): who it is, whose it is, its hours;
 * what the guides facade hands out (never the row). `deleted` profiles still name the
 * guides of past events.
 */
export interface GuideProfile {
  id: string;
  sellerId: string;
  userId: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  bio: string;
  schedules: Schedule[];
  deleted: boolean;
}

export const toGuideProfile = (row: GuideRow): GuideProfile => ({
  id: row.id,
  sellerId: row.seller_id,
  userId: row.user_id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  bio: row.bio,
  schedules: guideSchedulesOf(row),
  deleted: row.deleted_at !== null,
});

export function toGuideView(row: GuideRow): GuideView {
  return {
    object: 'guide',
    id: row.id,
    seller: ref(row.seller_id),
    user: { id: row.user_id },
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
