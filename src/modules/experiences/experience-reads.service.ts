/**
 * Reading experiences: the list (`GET /api/experiences`), guest types across them
 * (`GET /api/demographics`), one experience, and the views `expand=experience` asks for.
 * Each shows only what the caller may see (experiences.context.ts: visible, or its seller's
 * staff).
 */
import type { Caller } from '../../domain/caller.js';
import { runList } from '../../query/run.js';
import { demographicList } from './demographics.list.js';
import { demographicsRepository } from './demographics.repository.js';
import { toDemographicView } from './demographics.schemas.js';
import {
  canView,
  experiencesScope,
  visible,
  type ExperiencesContext,
} from './experiences.context.js';
import { experienceList } from './experiences.list.js';
import { experiencesRepository } from './experiences.repository.js';
import { toExperienceView, type ExperienceView } from './experiences.schemas.js';

/** Guest types, of the experiences the caller may see (`GET /api/demographics`). */
export const demographics = (
  ctx: ExperiencesContext,
  caller: Caller | null,
  query: Record<string, unknown>,
) =>
  runList(
    demographicList,
    { path: '/api/demographics', query, scope: experiencesScope(caller) },
    demographicsRepository(ctx.db).listSource(),
    (rows) => rows.map(toDemographicView),
  );

export const list = (
  ctx: ExperiencesContext,
  caller: Caller | null,
  query: Record<string, unknown>,
) =>
  runList(
    experienceList,
    { path: '/api/experiences', query, scope: experiencesScope(caller) },
    experiencesRepository(ctx.db).listSource(),
    (rows) => rows.map(toExperienceView),
  );

export async function get(
  ctx: ExperiencesContext,
  caller: Caller | null,
  id: string,
): Promise<ExperienceView> {
  return toExperienceView(await visible(ctx, caller, id));
}

/** The experiences of these ids the caller may see, as views (`expand`). */
export async function views(
  ctx: ExperiencesContext,
  caller: Caller | null,
  ids: readonly string[],
): Promise<Map<string, ExperienceView>> {
  const rows = (await experiencesRepository(ctx.db).findMany(ids)).filter((row) =>
    canView(caller, row),
  );
  return new Map(rows.map((row) => [row.id, toExperienceView(row)]));
}
