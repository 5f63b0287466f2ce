/**
 * Schedule and local-time rules (not a resource itself): which departures a schedule
 * allows on a date, validation of schedules, and local wall-clock time in IANA zones.
 */
export { departuresOn, isScheduled, hhmmKey, priceDeltaOf } from './departures.js';
export {
  canonicalZone,
  instantToLocal,
  isDepartureStart,
  isTimeZone,
  localToInstant,
  parseStart,
} from './local-time.js';
export { offsetAt, zoneNamed } from './zone-offsets.js';
export {
  addDays,
  appliesOn,
  boundDate,
  isClosing,
  normalizeSchedule,
  dayNumber,
  hhmmToMinutes,
  isDate,
  isHhmm,
  scheduleErrors,
  scheduleTotalErrors,
  MAX_SCHEDULE_DATES,
  MAX_SCHEDULE_TIMES,
  departureTimesOf,
  weekday,
  type Schedule,
  type ScheduleInput,
  type TimeRange,
} from './schedule.rules.js';
