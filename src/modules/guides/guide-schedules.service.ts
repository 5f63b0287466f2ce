/**
 * A guide's availability schedules one at a time (`/api/sellers/{id}/guides/{guideId}/schedules`):
 * added, replaced and removed by whoever manages the seller's guides, under the guide's row
 * lock so concurrent edits add up, each a `guide.update`.
 */
import { newId } from '../../db/ids.js';
import { inTransaction, type Tx } from '../../db/unit-of-work.js';
import type { Caller } from '../../domain/caller.js';
import { invalidFields, notFound } from '../../domain/errors.js';
import { recordedCreate, type Recorder } from '../idempotency/index.js';
import {
  normalizeSchedule,
  scheduleTotalErrors,
  type Schedule,
  type ScheduleInput,
} from '../schedules/index.js';
import { checkSchedules, emit, guide, type GuidesContext } from './guides.context.js';
import { guidesRepository } from './guides.repository.js';
import { guideSchedulesOf, toGuideView, type GuideView } from './guides.schemas.js';
import { mustHaveRoomForSchedule } from '../shared/index.js';

/** Writes the guide's schedules as `edit` makes them, under its row lock; answers with the guide. */
async function writeSchedules(
  ctx: GuidesContext,
  tx: Tx,
  caller: Caller,
  guideId: string,
  edit: (schedules: ScheduleInput[]) => ScheduleInput[],
): Promise<GuideView> {
  const guides = guidesRepository(tx);
  const row = await guides.lock(guideId);
  if (!row) throw notFound(`Guide ${guideId}`);
  const before = guideSchedulesOf(row);
  const schedules = edit(before);
  const totals = scheduleTotalErrors(schedules, before);
  if (totals.length > 0) throw invalidFields(totals);
  const updated = await guides.update(guideId, { schedules: JSON.stringify(schedules) });
  if (!updated) throw notFound(`Guide ${guideId}`); // cannot happen under the lock
  const view = toGuideView(updated);
  await emit(ctx, tx, caller, 'guide.update', view, toGuideView(row));
  return view;
}

/**
 * Changes the schedules of a guide in a transaction of their own; answers with the guide
 * (the answer of every schedule change but a create).
 */
async function editSchedules(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  guideId: string,
  edit: (schedules: ScheduleInput[]) => ScheduleInput[],
): Promise<GuideView> {
  await guide(ctx, caller, sellerId, guideId);
  return inTransaction(ctx.db, (tx) => writeSchedules(ctx, tx, caller, guideId, edit));
}

/** Adds a schedule; answers with it (its new id), as Xola's schedule create does. */
export async function addSchedule(
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  guideId: string,
  input: ScheduleInput,
  record?: Recorder,
): Promise<Schedule> {
  checkSchedules([input], () => '');
  const added = { ...normalizeSchedule(input), id: newId() };
  await guide(ctx, caller, sellerId, guideId);
  return recordedCreate(ctx.db, record, async (tx) => {
    await writeSchedules(ctx, tx, caller, guideId, (schedules) => {
      mustHaveRoomForSchedule(schedules, `Guide ${guideId}`);
      return [...schedules, added];
    });
    return added;
  });
}

export const updateSchedule = (
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  guideId: string,
  scheduleId: string,
  input: ScheduleInput,
) =>
  editSchedules(ctx, caller, sellerId, guideId, (schedules) => {
    if (!schedules.some((s) => s.id === scheduleId)) throw notFound(`Schedule ${scheduleId}`);
    checkSchedules([input], () => '');
    return schedules.map((s) =>
      s.id === scheduleId ? { ...normalizeSchedule(input), id: scheduleId } : s,
    );
  });

export const removeSchedule = (
  ctx: GuidesContext,
  caller: Caller,
  sellerId: string,
  guideId: string,
  scheduleId: string,
) =>
  editSchedules(ctx, caller, sellerId, guideId, (schedules) => {
    if (!schedules.some((s) => s.id === scheduleId)) throw notFound(`Schedule ${scheduleId}`);
    return schedules.filter((s) => s.id !== scheduleId);
  });
