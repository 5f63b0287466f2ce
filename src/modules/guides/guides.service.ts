/**
 * The guides service: guides and their availability schedules, managed by the seller, its
 * ROLE_SELLER_ADMIN and ROLE_GUIDE_MANAGER delegates (and admins). A guide id is the
 * profile's own id, never a user's; a profile may be linked to a user account. Each use
 * case (profiles, schedules) is a top-level function taking the guides context first; this
 * binds them to one context for the routes and the `expand` of guides.
 */
import type { Caller } from '../../domain/caller.js';
import type { Recorder } from '../idempotency/index.js';
import type { ScheduleInput } from '../schedules/index.js';
import {
  create,
  get,
  list,
  remove,
  update,
  views,
  type GuideProfileInput,
} from './guide-profiles.service.js';
import { addSchedule, removeSchedule, updateSchedule } from './guide-schedules.service.js';
import { guidesContext, type GuidesServiceDeps } from './guides.context.js';

export type { GuidesServiceDeps } from './guides.context.js';

export function guidesService(deps: GuidesServiceDeps) {
  const ctx = guidesContext(deps);
  return {
    views: (caller: Caller | null, ids: readonly string[]) => views(ctx, caller, ids),
    list: (caller: Caller, sellerId: string, query: Record<string, unknown>) =>
      list(ctx, caller, sellerId, query),
    create: (
      caller: Caller,
      sellerId: string,
      input: GuideProfileInput & { name: string; schedules?: ScheduleInput[] },
      record?: Recorder,
    ) => create(ctx, caller, sellerId, input, record),
    get: (caller: Caller, sellerId: string, id: string) => get(ctx, caller, sellerId, id),
    update: (caller: Caller, sellerId: string, id: string, input: GuideProfileInput) =>
      update(ctx, caller, sellerId, id, input),
    remove: (caller: Caller, sellerId: string, id: string) => remove(ctx, caller, sellerId, id),
    addSchedule: (
      caller: Caller,
      sellerId: string,
      guideId: string,
      input: ScheduleInput,
      record?: Recorder,
    ) => addSchedule(ctx, caller, sellerId, guideId, input, record),
    updateSchedule: (
      caller: Caller,
      sellerId: string,
      guideId: string,
      scheduleId: string,
      input: ScheduleInput,
    ) => updateSchedule(ctx, caller, sellerId, guideId, scheduleId, input),
    removeSchedule: (caller: Caller, sellerId: string, guideId: string, scheduleId: string) =>
      removeSchedule(ctx, caller, sellerId, guideId, scheduleId),
  };
}

export type GuidesService = ReturnType<typeof guidesService>;
