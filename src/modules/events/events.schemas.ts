/**
 * The Event object (its schema, view type, and how a row becomes it) and the request
 * bodies of the events endpoints.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Ref, Timestamp, listOf } from '../../http/schemas.js';
import { DateString, iso, localIso, ref } from '../shared/index.js';
import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/types.js';

/** A guide on an event and its answer (v2018-06-26). */
export const EventGuide = Type.Object({
  status: Type.Enum(['pending', 'confirmed', 'declined'], {
    description:
      'pending until the guide answers; assignments made before 2018-06-26 read confirmed',
  }),
  guide: Ref,
});

export const Event = Type.Object(
  {
    object: Type.Literal('event'),
    id: Id,
    experience: Ref,
    seller: Ref,
    title: Type.String({ description: "The experience's name" }),
    start: Type.String({
      format: 'date-time',
      description: "ISO 8601 with the experience's local offset",
    }),
    end: Type.String({ format: 'date-time' }),
    max: Nullable(Type.Integer({ description: 'Seats; null = unlimited' })),
    quantity: Type.Object({ reserved: Type.Integer() }),
    open: Nullable(
      Type.Integer({
        description:
          'Seats still bookable: max - reserved, 0 when closed by hand; null when unlimited',
      }),
    ),
    manual: Nullable(
      Type.Boolean({
        description:
          'Opened (true: bookable even where the schedules do not offer it) or closed (false) by hand; null follows the schedules',
      }),
    ),
    guides: Type.Array(EventGuide, {
      description:
        'The guides assigned, with their acknowledgement (v2018-06-26; bare guide ids before)',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Event' },
);
export type EventView = Static<typeof Event>;
export const EventList = listOf(Event);

export const UpdateEventBody = Type.Object(
  {
    max: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: 1_000_000,
          description: 'Seats; not below those reserved; null = unlimited',
        }),
      ),
    ),
    manual: Type.Optional(
      Nullable(
        Type.Boolean({
          description:
            'true opens the departure (even where the schedules do not offer it, as Xola reopens a closed event); false closes it to new bookings; null follows the schedules again',
        }),
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change' },
);

export const CreateEventBody = Type.Object(
  {
    experience: Type.Object({ id: Id }, { additionalProperties: false }),
    start: Type.String({
      minLength: 16,
      maxLength: 40,
      description: "ISO 8601; without an offset it is read in the experience's time zone",
      examples: ['2019-11-08T10:00:00+01:00'],
    }),
    max: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: 1_000_000,
          description: "Seats; default the experience's outingMax",
        }),
      ),
    ),
    guides: Type.Optional(
      Type.Array(
        Type.Union([
          Id,
          Type.Object({ id: Id }, { additionalProperties: false }),
          Type.Object(
            {
              guide: Type.Object({ id: Id }, { additionalProperties: false }),
              status: Type.Optional(Type.String({ maxLength: 20 })),
            },
            { additionalProperties: false },
          ),
        ]),
        {
          maxItems: 50,
          description:
            "The guides of the event after this call, as ids, `{id}` or `{guide: {id}}` (an event's own shape; its `status` is the guide's to give and is ignored); each new one is checked as in POST /api/events/{id}/guides",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const AvailabilityQuery = Type.Object({
  start: DateString,
  end: DateString,
});

export const Availability = Type.Record(
  Type.String({ description: 'YYYY-MM-DD' }),
  Type.Record(
    Type.String({ description: 'HHMM, unpadded (`900`, `1400`)' }),
    Nullable(Type.Integer({ description: 'Open seats; null = unlimited' })),
  ),
  {
    $id: 'Availability',
    description: '{"YYYY-MM-DD": {"900": openSeats}} (time keys unpadded, as Xola\'s)',
  },
);

export const ManyAvailabilityQuery = Type.Object({
  experience: Type.String({
    minLength: 24,
    maxLength: 50 * 25,
    description: 'Experience ids, comma-separated (at most 50)',
  }),
  start: DateString,
  end: DateString,
});

export const ManyAvailability = Type.Record(
  Type.String({ description: 'experience id' }),
  Availability,
  {
    $id: 'ManyAvailability',
    description: '{"<experience id>": {"YYYY-MM-DD": {"900": openSeats}}}',
  },
);

export type EventRow = Selectable<EventsTable> & { title: string; timezone: string };

/** The seats one may still book: none when closed by hand; null = unlimited. */
export const seatsOpen = (
  event: Pick<Selectable<EventsTable>, 'max' | 'reserved' | 'manual'>,
): number | null =>
  event.manual === false ? 0 : event.max === null ? null : Math.max(0, event.max - event.reserved);

/**
 * The local start and end the row keeps when they are of its experience's zone (the list's
 * JSON shows the same: event-json.ts), else as Node's zone rules give them (new-event.ts).
 */
const localTimes = (row: EventRow): Pick<EventView, 'start' | 'end'> =>
  row.local_zone === row.timezone && row.local_start !== null && row.local_end !== null
    ? { start: row.local_start, end: row.local_end }
    : { start: localIso(row.starts_at, row.timezone), end: localIso(row.ends_at, row.timezone) };

export function toEventView(row: EventRow): EventView {
  return {
    object: 'event',
    id: row.id,
    experience: ref(row.experience_id),
    seller: ref(row.seller_id),
    title: row.title,
    ...localTimes(row),
    max: row.max,
    quantity: { reserved: row.reserved },
    open: seatsOpen(row),
    manual: row.manual,
    guides: row.guide_ids.map((id) => ({
      status: row.guide_statuses[id] ?? 'confirmed',
      guide: ref(id),
    })),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}
