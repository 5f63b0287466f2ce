/**
 * Building blocks every resource shares (not a resource itself): references and timestamps
 * in views, and the Schedule object of experiences and guides.
 */
export { iso, localIso, ref, refOrNull, type Ref } from './views.js';
export {
  DateString,
  ExperienceScheduleFields,
  Hhmm,
  MAX_SCHEDULES,
  Schedule,
  ScheduleFields,
  TimeRange,
} from './schedule.schemas.js';
export { mustHaveRoomForSchedule } from './schedule-limit.js';
