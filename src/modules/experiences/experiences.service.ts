/**
 * The experiences service: what a seller sells, created and changed by the seller, its
 * curators and seller-admins (or an admin); visible ones, and their availability, are
 * public. Each use case (reads, writes, schedules, guide preferences) is a top-level
 * function in its own file taking the experiences context first; this binds them to one
 * context for the routes and the `expand` of experiences.
 */
import type { Caller } from '../../domain/caller.js';
import type { ScheduleInput } from '../schedules/index.js';
import type { Recorder } from '../idempotency/index.js';
import {
  createGuide,
  updateGuide,
  type GuidePreferencesInput,
} from './experience-guides.service.js';
import { demographics, get, list, views } from './experience-reads.service.js';
import {
  addSchedule,
  removeSchedule,
  replaceSchedule,
  schedule,
} from './experience-schedules.service.js';
import { create, remove, update, type NewExperience } from './experience-writes.service.js';
import {
  experiencesContext,
  type ExperienceInput,
  type ExperiencesServiceDeps,
} from './experiences.context.js';

export type { ExperienceInput, ExperiencesServiceDeps } from './experiences.context.js';
export { canView, experiencesScope, mayView } from './experiences.context.js';

export function experiencesService(deps: ExperiencesServiceDeps) {
  const ctx = experiencesContext(deps);
  return {
    demographics: (caller: Caller | null, query: Record<string, unknown>) =>
      demographics(ctx, caller, query),
    list: (caller: Caller | null, query: Record<string, unknown>) => list(ctx, caller, query),
    create: (caller: Caller, input: NewExperience, record?: Recorder) =>
      create(ctx, caller, input, record),
    get: (caller: Caller | null, id: string) => get(ctx, caller, id),
    views: (caller: Caller | null, ids: readonly string[]) => views(ctx, caller, ids),
    update: (caller: Caller, id: string, input: ExperienceInput) => update(ctx, caller, id, input),
    schedule: (caller: Caller | null, id: string, scheduleId: string) =>
      schedule(ctx, caller, id, scheduleId),
    addSchedule: (caller: Caller, id: string, input: ScheduleInput, record?: Recorder) =>
      addSchedule(ctx, caller, id, input, record),
    replaceSchedule: (caller: Caller, id: string, scheduleId: string, input: ScheduleInput) =>
      replaceSchedule(ctx, caller, id, scheduleId, input),
    removeSchedule: (caller: Caller, id: string, scheduleId: string) =>
      removeSchedule(ctx, caller, id, scheduleId),
    createGuide: (caller: Caller, id: string, input: GuidePreferencesInput) =>
      createGuide(ctx, caller, id, input),
    updateGuide: (caller: Caller, id: string, input: GuidePreferencesInput) =>
      updateGuide(ctx, caller, id, input),
    remove: (caller: Caller, id: string) => remove(ctx, caller, id),
  };
}

export type ExperiencesService = ReturnType<typeof experiencesService>;
