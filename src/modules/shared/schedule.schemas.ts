/**
 * The Schedule object shared by experiences (departure `times`) and guides (`timeRanges`
 * of working hours), with Xola's field names.
 */
import { Type } from 'typebox';
import { Id } from '../../http/schemas.js';

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

export const ScheduleFields = {
  name: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Enum(['available', 'unavailable']),
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
  start: Type.Optional(DateString),
  end: Type.Optional(DateString),
};

export const Schedule = Type.Object(
  { id: Id, ...ScheduleFields },
  { additionalProperties: false, $id: 'Schedule' },
);
