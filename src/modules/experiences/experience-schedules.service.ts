/**
 * An experience's schedules one at a time (`/api/experiences/{id}/schedules`): read by
 * whoever sees the experience; added, replaced and removed by whoever manages it, under the
 * experience's row lock and checked with the rest of it, each an `experience.update`.
 */
import type { Caller } from '../../domain/caller.js';
import { notFound } from '../../domain/errors.js';
import type { Schedule as StoredSchedule, ScheduleInput } from '../schedules/index.js';
import type { Recorder } from '../idempotency/index.js';
import {
  changeLocked,
  check,
  managed,
  visible,
  withIds,
  type ExperiencesContext,
} from './experiences.context.js';
import { experiencesRepository } from './experiences.repository.js';
import { demographicsOf, schedulesOf } from './experiences.schemas.js';
import { mustHaveRoomForSchedule } from '../shared/index.js';

/** A change of the schedules alone, checked with the rest of the experience. */
const changeSchedules = <T>(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  edit: (schedules: StoredSchedule[]) => { schedules: StoredSchedule[]; result: T },
  record?: Recorder,
): Promise<T> =>
  changeLocked(ctx, caller, id, async (tx, current) => {
    const before = schedulesOf(current);
    const { schedules, result } = edit(before);
    check(current, schedules, demographicsOf(current), before);
    const row = await experiencesRepository(tx).update(id, {
      schedules: JSON.stringify(schedules),
    });
    // A create's Idempotency-Key answer, in the same transaction as the schedule.
    if (record) await record(tx, { status: 201, body: result });
    return { row, result };
  });

/** The schedule with this id, or 404. */
const scheduleAt = (schedules: StoredSchedule[], id: string, scheduleId: string): number => {
  const index = schedules.findIndex((s) => s.id === scheduleId);
  if (index < 0) throw notFound(`Schedule ${scheduleId} of experience ${id}`);
  return index;
};

/** `GET /api/experiences/{id}/schedules/{scheduleId}`: whoever sees the experience. */
export async function schedule(
  ctx: ExperiencesContext,
  caller: Caller | null,
  id: string,
  scheduleId: string,
): Promise<StoredSchedule> {
  const schedules = schedulesOf(await visible(ctx, caller, id));
  return schedules[scheduleAt(schedules, id, scheduleId)]!;
}

/** Adds a schedule (a new id); answers with it. */
export async function addSchedule(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  input: ScheduleInput,
  record?: Recorder,
): Promise<StoredSchedule> {
  await managed(ctx, caller, id);
  return changeSchedules(
    ctx,
    caller,
    id,
    (schedules) => {
      mustHaveRoomForSchedule(schedules, `Experience ${id}`);
      const [added] = withIds([{ ...input, id: undefined }]);
      return { schedules: [...schedules, added!], result: added! };
    },
    record,
  );
}

/** Replaces a schedule with the one given, under the same id (its place kept). */
export async function replaceSchedule(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  scheduleId: string,
  input: ScheduleInput,
): Promise<StoredSchedule> {
  await managed(ctx, caller, id);
  return changeSchedules(ctx, caller, id, (schedules) => {
    const index = scheduleAt(schedules, id, scheduleId);
    const [replaced] = withIds([{ ...input, id: scheduleId }]);
    return { schedules: schedules.with(index, replaced!), result: replaced! };
  });
}

/** Removes a schedule; booked orders and their events stay as they are (docs). */
export async function removeSchedule(
  ctx: ExperiencesContext,
  caller: Caller,
  id: string,
  scheduleId: string,
): Promise<void> {
  await managed(ctx, caller, id);
  await changeSchedules(ctx, caller, id, (schedules) => {
    const index = scheduleAt(schedules, id, scheduleId);
    return { schedules: schedules.toSpliced(index, 1), result: undefined };
  });
}
