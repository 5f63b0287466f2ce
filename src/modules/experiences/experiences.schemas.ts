/**
 * The Experience object (its schema, view type, and how a row becomes it) and the request
 * bodies of the experiences endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf, refTo } from '../../http/schemas.js';
import {
  ExperienceScheduleFields,
  iso,
  MAX_SCHEDULES,
  ref,
  Schedule,
  ScheduleFields,
} from '../shared/index.js';
import type { Selectable } from 'kysely';
import type { ExperiencesTable } from '../../db/types.js';
import type { Schedule as StoredSchedule } from '../schedules/index.js';

/** The most seats an event, or a group, may have: far beyond any outing, well inside a column. */
export const MAX_SEATS = 1_000_000;

export const Experience = Type.Object(
  {
    object: Type.Literal('experience'),
    id: Id,
    seller: Ref,
    name: Type.String(),
    desc: Type.String(),
    price: Type.Number(),
    priceType: Type.Enum(['person', 'outing']),
    currency: Type.String({ description: 'ISO 4217' }),
    duration: Type.Integer({ description: 'Minutes' }),
    timezone: Type.String({ description: 'IANA time zone' }),
    group: Type.Object({
      orderMin: Nullable(Type.Integer()),
      orderMax: Nullable(Type.Integer()),
      outingMax: Nullable(Type.Integer({ description: 'Seats per event; null = unlimited' })),
    }),
    schedules: Type.Array(refTo(Schedule)),
    demographics: Type.Array(
      Type.Object({
        id: Id,
        label: Type.String(),
        code: Type.String(),
        price: Type.Number({ description: 'Per seat; the experience price unless set' }),
      }),
      { description: 'Guest types an item may book (docs/booking.md)' },
    ),
    resources: Type.Array(
      Type.Object({
        resource: Ref,
        seatsPerGuest: Type.Integer({ description: 'Seats of the resource each guest takes' }),
      }),
      {
        description:
          'The resources (boats, vans) its departures take seats of for their whole time (docs/resources.md)',
      },
    ),
    visible: Type.Boolean(),
    guide: Type.Optional(
      Type.Object({
        required: Type.Integer(),
        autoAssign: Type.Boolean(),
        includeInConfirmation: Type.Boolean(),
      }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Experience' },
);
export type ExperienceView = Static<typeof Experience>;
export const ExperienceList = listOf(Experience);

const ScheduleBody = Type.Object(
  {
    id: Type.Optional({ ...Id, description: 'Keep this schedule (clients address it by id)' }),
    ...ScheduleFields,
    ...ExperienceScheduleFields,
  },
  { additionalProperties: false },
);

/** `POST` and `PUT /api/experiences/{id}/schedules[/{scheduleId}]`: a whole schedule. */
export const ExperienceScheduleBody = Type.Object(
  { ...ScheduleFields, ...ExperienceScheduleFields },
  { additionalProperties: false },
);

export const ScheduleParams = Type.Object({ id: Id, scheduleId: Id });

const DemographicBody = Type.Object(
  {
    id: Type.Optional({ ...Id, description: 'Keep this guest type (orders name it by id)' }),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'label (Xola)' })),
    code: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,39}$', description: 'e.g. adult, child' }),
    price: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          maximum: 9_999_999_999.99,
          description: "Per seat; default the experience's price",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

const Group = Type.Object(
  {
    orderMin: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: MAX_SEATS,
          description: 'Fewest seats one item may book',
        }),
      ),
    ),
    orderMax: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: MAX_SEATS,
          description: 'Most seats one item may book',
        }),
      ),
    ),
    outingMax: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: MAX_SEATS,
          description: 'Seats per event; null = unlimited',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

const experienceFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  desc: Type.Optional(Type.String({ maxLength: 10_000 })),
  price: Type.Number({ minimum: 0, maximum: 9_999_999_999.99 }),
  priceType: Type.Enum(['person', 'outing'], {
    description: 'person: price per seat; outing: per booking',
  }),
  currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217, e.g. USD' }),
  duration: Type.Integer({ minimum: 1, maximum: 10_080, description: 'Minutes' }),
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'IANA, default UTC' }),
  ),
  group: Type.Optional(Group),
  schedules: Type.Optional(Type.Array(ScheduleBody, { maxItems: MAX_SCHEDULES })),
  demographics: Type.Optional(Type.Array(DemographicBody, { maxItems: 20 })),
  resources: Type.Optional(
    Type.Array(
      Type.Object(
        {
          resource: Type.Object({ id: Id }, { additionalProperties: false }),
          seatsPerGuest: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 100, description: 'Default 1' }),
          ),
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 10,
        description:
          "Resources of the experience's seller its departures use; the list replaces the old one",
      },
    ),
  ),
  visible: Type.Optional(Type.Boolean()),
};

export const CreateExperienceBody = Type.Object(
  {
    seller: Type.Optional(
      Type.Object({ id: Id }, { additionalProperties: false, description: 'Default: the caller' }),
    ),
    ...experienceFields,
  },
  { additionalProperties: false },
);

export const UpdateExperienceBody = Type.Object(
  {
    name: Type.Optional(experienceFields.name),
    desc: experienceFields.desc,
    price: Type.Optional(experienceFields.price),
    priceType: Type.Optional(experienceFields.priceType),
    currency: Type.Optional(experienceFields.currency),
    duration: Type.Optional(experienceFields.duration),
    timezone: experienceFields.timezone,
    group: experienceFields.group,
    schedules: experienceFields.schedules,
    demographics: experienceFields.demographics,
    resources: experienceFields.resources,
    visible: experienceFields.visible,
  },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change' },
);

const guidePreferenceFields = {
  required: Type.Integer({ minimum: 0, maximum: 100, description: 'Guides needed per event' }),
  autoAssign: Type.Boolean({
    description:
      'Assign free guides (up to `required`, at least one) to each new event of the experience (docs/guides.md)',
  }),
  includeInConfirmation: Type.Boolean({
    description: "List the event's guides in confirmation emails",
  }),
};

export const CreateGuidePreferencesBody = Type.Object(
  {
    required: Type.Optional(guidePreferenceFields.required),
    autoAssign: Type.Optional(guidePreferenceFields.autoAssign),
    includeInConfirmation: Type.Optional(guidePreferenceFields.includeInConfirmation),
  },
  {
    additionalProperties: false,
    description: 'Defaults: required 0, autoAssign false, includeInConfirmation false',
  },
);

export const UpdateGuidePreferencesBody = Type.Object(
  {
    required: Type.Optional(guidePreferenceFields.required),
    autoAssign: Type.Optional(guidePreferenceFields.autoAssign),
    includeInConfirmation: Type.Optional(guidePreferenceFields.includeInConfirmation),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type ExperienceRow = Selectable<ExperiencesTable>;

/** The stored schedules, which were validated on their way in. */
export const schedulesOf = (row: Pick<ExperienceRow, 'schedules'>): StoredSchedule[] =>
  row.schedules as unknown as StoredSchedule[];

export type GuidePreferences = NonNullable<ExperienceView['guide']>;

/** A guest type as stored: `price` null means the experience's price. */
export interface StoredDemographic {
  id: string;
  label: string;
  code: string;
  price: number | null;
}

export const demographicsOf = (row: Pick<ExperienceRow, 'demographics'>): StoredDemographic[] =>
  row.demographics as unknown as StoredDemographic[];

/** A resource the experience's departures use, as stored (docs/resources.md). */
export interface StoredResourceUse {
  id: string;
  seatsPerGuest: number;
}

export const resourcesOf = (row: Pick<ExperienceRow, 'resources'>): StoredResourceUse[] =>
  row.resources as unknown as StoredResourceUse[];

/** The stored guide preferences (written whole on create, merged on update), if any. */
export const guidePreferencesOf = (row: Pick<ExperienceRow, 'guide'>): GuidePreferences | null =>
  row.guide as GuidePreferences | null;

/**
 * An experience as bookings, events and emails see it: what it sells, when, for whom and
 * at what price, in the domain's words. What the experiences facade hands to other modules
 * (never the row).
 */
export interface BookableExperience {
  id: string;
  sellerId: string;
  name: string;
  price: number;
  priceType: 'person' | 'outing';
  currency: string;
  /** Minutes. */
  duration: number;
  timezone: string;
  visible: boolean;
  orderMin: number | null;
  orderMax: number | null;
  /** Seats per departure; null: no limit. */
  outingMax: number | null;
  schedules: StoredSchedule[];
  demographics: StoredDemographic[];
  /** The resources its departures take seats of (docs/resources.md). */
  resources: StoredResourceUse[];
  guide: GuidePreferences | null;
}

export const toBookable = (row: ExperienceRow): BookableExperience => ({
  id: row.id,
  sellerId: row.seller_id,
  name: row.name,
  price: row.price,
  priceType: row.price_type,
  currency: row.currency,
  duration: row.duration,
  timezone: row.timezone,
  visible: row.visible,
  orderMin: row.order_min,
  orderMax: row.order_max,
  outingMax: row.outing_max,
  schedules: schedulesOf(row),
  demographics: demographicsOf(row),
  resources: resourcesOf(row),
  guide: guidePreferencesOf(row),
});

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
    demographics: demographicsOf(row).map((d) => ({
      id: d.id,
      label: d.label,
      code: d.code,
      price: d.price ?? row.price,
    })),
    resources: resourcesOf(row).map((r) => ({
      resource: ref(r.id),
      seatsPerGuest: r.seatsPerGuest,
    })),
    visible: row.visible,
    ...(row.guide ? { guide: guidePreferencesOf(row)! } : {}),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
