/** The one bound on an experience's or a guide's schedules, for a schedule added alone. */
import { DomainError } from '../../domain/errors.js';
import { MAX_SCHEDULES } from './schedule.schemas.js';

/** 409 too_many_schedules when `schedules` has no room for one more. */
export function mustHaveRoomForSchedule(schedules: readonly unknown[], owner: string): void {
  if (schedules.length >= MAX_SCHEDULES)
    throw new DomainError(
      'too_many_schedules',
      `${owner} has ${MAX_SCHEDULES} schedules, the most it may have; delete one first.`,
    );
}
