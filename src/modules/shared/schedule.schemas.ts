/**
 * The Schedule object shared by experiences (departure `times`) and guides (`timeRanges`
 * of working hours), with Xola's field names.
 */
import { Type } from 'typebox';
import { Id } from '../../http/schemas.js';

/**
 * The schedules one experience or guide may have: every availability answer, assignment and
 * booking walks them all. A whole body is held to it by its schema, one added at a time by
 * `mustHaveRoomForSchedule` (adding them one by one went past it).
 */
export const MAX_SCHEDULES = 50;

export const DateString = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'YYYY-MM-DD',
  examples: ['2019-11-08'],
});

export const Hhmm = Type.Integer({
  minimum: 0,
  maximum: 2359,
  description: 'Time of day as an HHMM integer (930 = 09:30); minutes below 60',
});

export const TimeRange = Type.Object(
  { startTime: Hhmm, endTime: Hhmm },
  { additionalProperties: false },
);

/**
 * A schedule's first or last day: a date, or (as Xola's clients send it) an ISO 8601
 * date-time, of which only the date as written counts; stored and shown as the date.
 */
export const ScheduleBound = Type.String({
  maxLength: 40,
  pattern:
    '^\\d{4}-\\d{2}-\\d{2}(T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?$',
  description: 'YYYY-MM-DD, or an ISO 8601 date-time whose date (as written) is the day',
  examples: ['2019-11-08', '2019-11-08T00:00:00+01:00'],
});

export const ScheduleFields = {
  name: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Enum(['available', 'unavailable', 'blackout'], {
    description: 'blackout is unavailable by another name (newer Xola clients send it)',
  }),
  repeat: Type.Enum(['weekly', 'custom']),
  days: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0, maximum: 6 }), {
      maxItems: 7,
      uniqueItems: true,
      description: '0 = Sunday; for weekly schedules',
    }),
  ),
  dates: Type.Optional(
    Type.Array(DateString, { maxItems: 366, description: 'For custom schedules' }),
  ),
  times: Type.Optional(
    Type.Array(Hhmm, { maxItems: 96, description: 'Departure times (experiences)' }),
  ),
  timeRanges: Type.Optional(
    Type.Array(TimeRange, { maxItems: 24, description: 'Working hours (guides); empty = all day' }),
  ),
  start: Type.Optional(ScheduleBound),
  end: Type.Optional(ScheduleBound),
};

/** Fields only experience schedules have (Xola's). */
export const ExperienceScheduleFields = {
  departure: Type.Optional(
    Type.Enum(['fixed', 'varies'], {
      description:
        'fixed: departs at `times`; varies: `times` are the start times a guest may pick (shown to booking pages, booked the same way)',
    }),
  ),
  priceDelta: Type.Optional(
    Type.Number({
      minimum: -9_999_999_999.99,
      maximum: 9_999_999_999.99,
      description:
        "Added to every seat's price (to the outing's price for outing pricing) of the departures this schedule adds",
    }),
  ),
};

export const Schedule = Type.Object(
  {
    id: Id,
    ...ScheduleFields,
    start: Type.Optional(DateString),
    end: Type.Optional(DateString),
    ...ExperienceScheduleFields,
  },
  { additionalProperties: false, $id: 'Schedule' },
);
